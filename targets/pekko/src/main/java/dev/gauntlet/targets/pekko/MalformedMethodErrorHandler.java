package dev.gauntlet.targets.pekko;

import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.DefaultParsingErrorHandler;
import org.apache.pekko.http.ParsingErrorHandler;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.scaladsl.model.ErrorInfo;
import org.apache.pekko.http.scaladsl.model.StatusCode;
import org.apache.pekko.http.scaladsl.model.StatusCodes;
import org.apache.pekko.http.scaladsl.settings.ServerSettings;

/**
 * Pekko HTTP's answer to a request it cannot parse, with one correction: Pekko answers
 * {@code 501 Not Implemented} to any method it does not know, even one that is not an HTTP token
 * at all ({@code GARBAGE\u0001}); such a request is malformed, and the contract answers those
 * {@code 400}. A well-formed unknown method keeps its 501; every other error, and the logging, is
 * Pekko's own. Named in {@code pekko.http.server.parsing.error-handler}, created by Pekko.
 */
public final class MalformedMethodErrorHandler extends ParsingErrorHandler {
    /** RFC 9110's {@code tchar}s besides letters and digits. */
    private static final String TOKEN_SYMBOLS = "!#$%&'*+-.^_`|~";

    @Override
    public HttpResponse handle(StatusCode status, ErrorInfo error, LoggingAdapter log, ServerSettings settings) {
        StatusCode answered = status.equals(StatusCodes.NotImplemented()) && !isToken(error.detail())
                ? StatusCodes.BadRequest() : status;
        return DefaultParsingErrorHandler.handle(answered, error, log, settings);
    }

    private static boolean isToken(String method) {
        if (method.isEmpty()) {
            return false;
        }
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && TOKEN_SYMBOLS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
