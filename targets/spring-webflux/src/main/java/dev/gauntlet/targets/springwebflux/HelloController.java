package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * {@code GET /hello} as a WebFlux annotated controller: the handler returns at once and the
 * response is emitted when a {@code Mono.delay} timer fires, on Reactor's parallel scheduler; no
 * thread waits. A wait of 0 answers at once.
 *
 * <p>The body is bytes with an explicit {@code text/plain}: a {@code String} would be encoded with
 * {@code ;charset=UTF-8} added. The byte-array encoder sets {@code Content-Length} for a single
 * value and leaves the type as given. Every other path reaches no handler and gets Boot's 404.
 */
@RestController
final class HelloController {
    private static final ResponseEntity<byte[]> HELLO =
            ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(HelloContract.BODY_BYTES);

    private final RequestStats stats;

    HelloController(RequestStats stats) {
        this.stats = stats;
    }

    @GetMapping(HelloContract.PATH)
    Mono<ResponseEntity<byte[]>> hello(ServerHttpRequest request) {
        long waitMs;
        try {
            // The raw query, parsed as by every other target (a @RequestParam would accept other forms).
            waitMs = HelloContract.waitMs(request.getURI().getRawQuery());
        } catch (IllegalArgumentException e) {
            return Mono.just(ResponseEntity.badRequest().build());
        }
        stats.begin();
        Mono<ResponseEntity<byte[]>> response = waitMs == 0
                ? Mono.just(HELLO)
                : Mono.delay(Duration.ofMillis(waitMs)).thenReturn(HELLO);
        // Cancelled when the connection closes during the wait (or the server stops).
        return response.doOnSuccess(hello -> stats.complete()).doOnCancel(stats::fail);
    }
}
