package dev.gauntlet.loadgen;

import picocli.CommandLine;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * An enum option's value in any case ({@code --network netns}, {@code --connection-policy FIXED}); anything else is
 * refused in a line that names the choices in lower case. A subclass names its enum, for picocli to instantiate:
 *
 * <pre>{@code
 * static final class PolicyChoice extends EnumChoice<ConnectionPolicy> {
 *     PolicyChoice() { super(ConnectionPolicy.class); }
 * }
 * }</pre>
 */
public abstract class EnumChoice<E extends Enum<E>> implements CommandLine.ITypeConverter<E> {
    private final Class<E> type;

    protected EnumChoice(Class<E> type) {
        this.type = type;
    }

    @Override
    public E convert(String value) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not one of " + Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
        }
    }
}
