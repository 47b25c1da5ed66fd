package dev.gauntlet.runner.suite;

/**
 * Keep adding forks until every ranked pair is resolved ({@code untilResolved} in a suite, {@code --until-resolved}):
 * after the suite's own forks, one more fork at a time of the targets whose pairs are not, until each is or the
 * bounds are reached, whichever comes first. A pair that truly does not differ is never resolved: the bounds end it,
 * and the table says the precision reached.
 *
 * <pre>{@code
 * untilResolved: { maxForks: 8, maxMinutes: 45 }
 * }</pre>
 *
 * @param maxForks   the most forks any target gets, the suite's own included
 * @param maxMinutes no fork is begun once the suite has run this long
 */
public record UntilResolved(int maxForks, int maxMinutes) {
    /** What {@code --until-resolved} asks of a suite that says nothing of it. */
    public static final UntilResolved DEFAULT = new UntilResolved(10, 60);
    static final int MAX_MINUTES = 24 * 60;

    public UntilResolved {
        Suite.checkRange("untilResolved.maxForks", maxForks, 2, Suite.MAX_FORKS);
        Suite.checkRange("untilResolved.maxMinutes", maxMinutes, 1, MAX_MINUTES);
    }
}
