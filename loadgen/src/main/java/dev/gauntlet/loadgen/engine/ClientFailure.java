package dev.gauntlet.loadgen.engine;

import dev.gauntlet.api.ErrorClass;

import javax.net.ssl.SSLException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertificateException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * A request's failure with its {@link ErrorClass} decided by the engine that saw it, for the
 * failures a library reports in a way {@link #classify} cannot read (its own exception types).
 */
public final class ClientFailure extends Exception {
    private final ErrorClass errorClass;

    public ClientFailure(ErrorClass errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    /**
     * The class of a failure as libraries commonly report it, looking through wrappers
     * ({@code ExecutionException}, {@code CompletionException}, a library's own) to the first cause
     * that says: refused and no route are {@code REFUSED}; a connect timeout is {@code CONNECT_TIMEOUT};
     * another timeout is {@code RESPONSE_TIMEOUT}; a reset, an early end of stream or a closed
     * connection is {@code RESET}; a TLS failure ({@code SSLException}, a certificate refused) is {@code TLS}; a
     * {@code ProtocolException} is {@code PROTOCOL}; any other I/O
     * failure is {@code RESET}; a chain with no I/O failure in it at all is the library's own, {@code CLIENT}.
     */
    public static ErrorClass classify(Throwable failure) {
        boolean io = false;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            switch (t) {
                case ClientFailure known -> {
                    return known.errorClass();
                }
                case ConnectException _ -> {
                    return mentionsTimeout(t) ? ErrorClass.CONNECT_TIMEOUT : ErrorClass.REFUSED;
                }
                case NoRouteToHostException _ -> {
                    return ErrorClass.REFUSED;
                }
                case HttpConnectTimeoutException _ -> {
                    return ErrorClass.CONNECT_TIMEOUT;
                }
                case HttpTimeoutException _ -> {
                    return ErrorClass.RESPONSE_TIMEOUT;
                }
                case SocketTimeoutException _, TimeoutException _ -> {
                    return mentionsConnect(t) ? ErrorClass.CONNECT_TIMEOUT : ErrorClass.RESPONSE_TIMEOUT;
                }
                case EOFException _ -> {
                    return ErrorClass.RESET;
                }
                case SSLException _, CertificateException _ -> {
                    return ErrorClass.TLS;
                }
                case ProtocolException _ -> {
                    return ErrorClass.PROTOCOL;
                }
                // InterruptedIOException among them: an I/O failure none of the above names.
                case IOException _ -> io = true;
                default -> {
                }
            }
        }
        return io ? ErrorClass.RESET : ErrorClass.CLIENT;
    }

    private static boolean mentionsConnect(Throwable t) {
        return t.getMessage() != null && t.getMessage().toLowerCase(Locale.ROOT).contains("connect");
    }

    private static boolean mentionsTimeout(Throwable t) {
        return t.getMessage() != null && t.getMessage().toLowerCase(Locale.ROOT).contains("timed out");
    }
}
