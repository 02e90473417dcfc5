package dev.ariadne.server.stats;

/**
 * Worker time one route has taken from its pool since the server started, as
 * {@link ServerStats#routeWork(String)} reports it.
 *
 * @param route the route template ({@code /api/user/{id}}), or one of the fixed values of
 * {@link RequestEvent#route()}
 * @param exchanges the exchanges of the route that ended
 * @param workerNanos the worker time they took, in nanoseconds
 */
public record RouteWork(String route, long exchanges, long workerNanos) {
}
