/**
 * The HTTP/2 codec (RFC 9113, RFC 7541), with no sockets and no threads: frames in and out,
 * HPACK, settings, stream states and flow-control windows, tested from {@code ByteBuffer}s as
 * {@link dev.ariadne.http.RequestParser} is.
 *
 * <p>It imports only {@code java.*} and {@code dev.ariadne.http}; the protocol layer
 * ({@code dev.ariadne.server.protocol}) puts it on a wire.
 */
package dev.ariadne.http2;
