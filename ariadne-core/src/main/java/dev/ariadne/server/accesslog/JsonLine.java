package dev.ariadne.server.accesslog;

/**
 * Writes an entry as one JSON object: every string escaped ({@link LineBuffer#json}), so that
 * what a client sent can neither end the object nor the line; the referrer and the user agent
 * only when the request had them.
 */
final class JsonLine {

	private JsonLine() {
	}

	static void write(AccessLogEntry entry, LineBuffer out, LineContext context) {
		out.ascii("{\"time\":\"");
		context.timestamps.iso(entry.epochMillis, out);
		out.ascii('"');
		string(out, "listener", context.listener);
		string(out, "io_model", context.ioModel);
		string(out, "pool", entry.pool);
		out.ascii(",\"remote\":\"");
		context.address(entry.remote, out, true);
		out.ascii('"');
		string(out, "method", entry.method);
		string(out, "target", entry.target);
		string(out, "protocol", entry.protocol);
		out.ascii(",\"status\":");
		out.decimal(entry.status);
		out.ascii(",\"bytes\":");
		out.decimal(entry.bytes);
		out.ascii(",\"duration_ms\":");
		out.millis(entry.durationNanos);
		out.ascii(",\"wait_ms\":");
		out.millis(entry.waitNanos);
		string(out, "route", entry.route);
		// the format's request fields, in the order json() names them
		string(out, "referer", entry.requestFields[0]);
		string(out, "user_agent", entry.requestFields[1]);
		out.ascii('}');
	}

	/** Appends {@code ,"name":"value"}, or nothing when the value is absent. */
	private static void string(LineBuffer out, String name, String value) {
		if (value == null) {
			return;
		}
		out.ascii(",\"");
		out.ascii(name);
		out.ascii("\":\"");
		out.json(value);
		out.ascii('"');
	}

}
