package dev.gauntlet.targets.springmvc;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /hello} as a Spring MVC annotated controller: the request thread sleeps out the wait
 * and returns the body. Tomcat's executor decides the style (platform pool or virtual threads).
 *
 * <p>The body is bytes with an explicit {@code text/plain}: a {@code String} would go through the
 * string converter, which adds {@code ;charset=UTF-8}. The byte-array converter writes
 * {@code Content-Length} and leaves the type as given. Every other path reaches no handler and gets
 * Boot's 404.
 */
@RestController
final class HelloController {
    private final RequestStats stats;

    HelloController(RequestStats stats) {
        this.stats = stats;
    }

    @GetMapping(HelloContract.PATH)
    ResponseEntity<byte[]> hello(HttpServletRequest request) {
        long waitMs;
        try {
            // The raw query, parsed as by every other target (a @RequestParam would accept other forms).
            waitMs = HelloContract.waitMs(request.getQueryString());
        } catch (IllegalArgumentException e) {
            return ResponseEntity.badRequest().build();
        }
        stats.begin();
        HelloContract.sleep(waitMs);
        ResponseEntity<byte[]> response = ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(HelloContract.BODY_BYTES);
        stats.complete();
        return response;
    }
}
