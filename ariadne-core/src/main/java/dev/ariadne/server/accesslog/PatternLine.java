package dev.ariadne.server.accesslog;

import dev.ariadne.server.accesslog.AccessLogFormat.Part;

/**
 * Writes the codes of a pattern, NCSA's way: absent values as {@code -}, what a client sent
 * escaped ({@link LineBuffer#ncsa}).
 */
final class PatternLine {

	private PatternLine() {
	}

	static void write(Part part, AccessLogEntry entry, LineBuffer out, LineContext context) {
		switch (part.code()) {
			case TEXT -> out.ascii(part.text());
			case REMOTE -> context.address(entry.remote, out, false);
			case LOCAL_ADDRESS -> context.address(entry.local, out, false);
			case LOCAL_PORT -> {
				if (entry.local != null) {
					out.decimal(entry.local.getPort());
				}
				else {
					out.ascii('-');
				}
			}
			case DASH -> out.ascii('-');
			case TIME -> context.timestamps.ncsa(entry.epochMillis, out);
			case REQUEST_LINE -> requestLine(entry, out);
			case METHOD -> out.ncsa(entry.method);
			case PATH -> out.ncsa(path(entry.pathAndQuery));
			case QUERY -> query(entry.pathAndQuery, out);
			case PROTOCOL -> out.ncsa(entry.protocol);
			case STATUS -> out.decimal(entry.status);
			case BYTES_OR_DASH -> {
				if (entry.bytes > 0) {
					out.decimal(entry.bytes);
				}
				else {
					out.ascii('-');
				}
			}
			case BYTES -> out.decimal(entry.bytes);
			case MICROS -> out.decimal(entry.durationNanos / 1_000);
			case MILLIS -> out.decimal(entry.durationNanos / 1_000_000);
			case SECONDS -> out.decimal(entry.durationNanos / 1_000_000_000);
			case REQUEST_FIELD -> out.ncsa(entry.requestFields[part.slot()]);
			case RESPONSE_FIELD -> out.ncsa(entry.responseFields[part.slot()]);
			case WAIT -> out.millis(entry.waitNanos);
			case POOL -> out.ncsa(entry.pool);
			case IO_MODEL -> out.ncsa(context.ioModel);
			case LISTENER -> out.ncsa(context.listener);
			case ROUTE -> out.ncsa(entry.route);
		}
	}

	/** {@code GET /a?b HTTP/1.1}, or {@code -} when the request line could not be read. */
	private static void requestLine(AccessLogEntry entry, LineBuffer out) {
		if (entry.method == null) {
			out.ascii('-');
			return;
		}
		out.ncsa(entry.method);
		out.ascii(' ');
		out.ncsa(entry.target);
		out.ascii(' ');
		out.ncsa(entry.protocol);
	}

	private static String path(String pathAndQuery) {
		if (pathAndQuery == null) {
			return null;
		}
		int query = pathAndQuery.indexOf('?');
		return (query >= 0) ? pathAndQuery.substring(0, query) : pathAndQuery;
	}

	private static void query(String pathAndQuery, LineBuffer out) {
		int query = (pathAndQuery != null) ? pathAndQuery.indexOf('?') : -1;
		if (query >= 0) {
			// the query with its '?', as Tomcat writes it; nothing when there is none
			out.ncsa(pathAndQuery.substring(query));
		}
	}

}
