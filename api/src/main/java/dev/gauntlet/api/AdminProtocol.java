package dev.gauntlet.api;

/**
 * A target's admin endpoint, on its second port, as the target serves it and the generator and
 * the runner call it. Reading needs nothing; a reset shows the target's {@link AdminToken}.
 *
 * <pre>{@code
 * GET  /stats        {started, completed, inFlight, maxInFlight, errors, cpuMs, cpus, uptimeMs}
 * POST /stats/reset  the counts, the hiccup log and the capacity log start again; Authorization: Bearer TOKEN, else 403
 * GET  /settings     the settings in force, ports included
 * GET  /hiccup       the hiccup interval log since the last reset
 * GET  /jit          the JIT's activity: {compileMs, queued}
 * GET  /capacity     the capacity log since the last reset: one CSV line a second (CapacityLog)
 * GET  /recording?begin=EPOCH_MS&end=EPOCH_MS
 *                    that window of the target's JFR recording (whole chunks); the token, else 403; 404 when it records none
 * }</pre>
 *
 * <pre>{@code
 * request.uri(adminUrl.resolve(AdminProtocol.STATS_RESET)).header(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(token));
 * }</pre>
 */
public final class AdminProtocol {
    public static final String STATS = "/stats";
    public static final String STATS_RESET = "/stats/reset";
    public static final String SETTINGS = "/settings";
    public static final String HICCUP = "/hiccup";
    public static final String JIT = "/jit";
    public static final String CAPACITY = "/capacity";
    public static final String RECORDING = "/recording";
    /** The request header that carries {@link AdminToken#bearer(String)}. */
    public static final String TOKEN_HEADER = "Authorization";

    private AdminProtocol() {
    }
}
