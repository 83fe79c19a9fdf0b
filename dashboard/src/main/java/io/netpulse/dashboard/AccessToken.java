package io.netpulse.dashboard;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Token check for a dashboard reachable from other hosts. The token may come as {@code ?token=}
 * (the printed URL), a bearer header (scripts) or the cookie set on the first good request (so the
 * page's own assets, API calls and EventSource need nothing more).
 */
final class AccessToken {

  static final String COOKIE = "netpulse_token";

  private final byte[] expected;
  private final String token;

  AccessToken(String token) {
    this.token = token;
    this.expected = token.getBytes(StandardCharsets.UTF_8);
  }

  /** 32 random bytes, URL-safe so the URL needs no escaping. */
  static String generate() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  void handle(RoutingContext ctx) {
    String fromQuery = ctx.request().getParam("token");
    if (matches(fromQuery)) {
      ctx.response().addCookie(
          Cookie.cookie(COOKIE, token).setPath("/").setHttpOnly(true).setSameSite(CookieSameSite.STRICT));
      ctx.next();
      return;
    }
    String authorization = ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
    String fromHeader = authorization != null && authorization.startsWith("Bearer ")
        ? authorization.substring("Bearer ".length()).trim() : null;
    Cookie cookie = ctx.request().getCookie(COOKIE);
    if (matches(fromHeader) || (cookie != null && matches(cookie.getValue()))) {
      ctx.next();
      return;
    }
    ctx.response()
        .setStatusCode(401)
        .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; charset=utf-8")
        .end("401 Unauthorized: this dashboard needs its access token; "
            + "open the URL it printed at start (it ends in ?token=...)\n");
  }

  private boolean matches(String candidate) {
    // constant-time, so response timing does not leak how much of a guess was right
    return candidate != null
        && MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.UTF_8));
  }
}
