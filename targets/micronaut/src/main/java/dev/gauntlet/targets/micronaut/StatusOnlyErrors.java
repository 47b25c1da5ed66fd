package dev.gauntlet.targets.micronaut;

import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;

/**
 * Error responses ({@code 404}, {@code 400}, ...) as Micronaut makes them, status only, with an
 * empty body. It stands in for Micronaut's default processor, which writes a JSON error document
 * and so needs a JSON library on the classpath; only the status is part of the target contract.
 */
@Singleton
final class StatusOnlyErrors implements ErrorResponseProcessor<Object> {

    @Override
    @SuppressWarnings("unchecked")
    public MutableHttpResponse<Object> processResponse(ErrorContext errorContext, MutableHttpResponse<?> baseResponse) {
        return (MutableHttpResponse<Object>) baseResponse;
    }
}
