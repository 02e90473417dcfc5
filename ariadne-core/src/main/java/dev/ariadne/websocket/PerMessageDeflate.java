package dev.ariadne.websocket;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;

/**
 * A permessage-deflate agreement (RFC 7692), as the server answers a client's offers, and what
 * each side's compressor must do under it.
 *
 * <p>{@link #negotiate} takes the first offer the server can accept (§5.1) and declines the
 * others. An offer is declined when it breaks the grammar of §7.1: an unknown parameter, one
 * given twice, a value on a {@code *_no_context_takeover}, a window size that is not 8 to 15
 * without leading zeros, a {@code server_max_window_bits} without a value.
 *
 * <p><b>{@code server_max_window_bits} below 15 is declined.</b> The JDK's {@link Deflater}
 * always uses a 32 KiB window (15 bits) and cannot be told otherwise, so an answer agreeing to a
 * smaller one could only be kept by compressing without back-references (Huffman coding only,
 * or stored blocks), which gives up most of what the client meant to gain while the server
 * still pays for a deflater. Declining lets the client fall back to its next offer (browsers
 * offer none with this parameter; clients that do usually offer one without it after) or to no
 * compression. Tomcat declines it too. An offer of 15 is accepted and echoed.
 *
 * <p>{@code client_max_window_bits}, with or without a value, is accepted and not answered: the
 * JDK's {@link java.util.zip.Inflater} reads any window up to 15 bits, so the server has no
 * reason to limit the client's. {@code server_no_context_takeover} offered is always agreed (the
 * server resets its compressor after each message); the server asks for it itself, and for
 * {@code client_no_context_takeover}, when its {@link Options} say so.
 */
public final class PerMessageDeflate {

	/** The extension's name. */
	public static final String NAME = "permessage-deflate";

	private static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";

	private static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";

	private static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";

	private static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

	/**
	 * What a server is willing to agree to.
	 *
	 * @param serverContextTakeover whether the server keeps its compressor's window from one
	 * message to the next (better compression, and a {@link Deflater} held per connection for
	 * its life) unless the client asks it not to; {@code false} answers every offer with
	 * {@code server_no_context_takeover}
	 * @param clientContextTakeover whether the server lets the client keep its window;
	 * {@code false} answers every offer with {@code client_no_context_takeover}
	 * @param compressionLevel the {@link Deflater} level, 0 to 9, or -1 for zlib's default (6)
	 */
	public record Options(boolean serverContextTakeover, boolean clientContextTakeover, int compressionLevel) {

		/** Context takeover both ways, zlib's default level: the best compression. */
		public static final Options DEFAULTS = new Options(true, true, Deflater.DEFAULT_COMPRESSION);

		/**
		 * Creates options.
		 */
		public Options {
			if (compressionLevel < -1 || compressionLevel > 9) {
				throw new IllegalArgumentException("compressionLevel must be -1 to 9, not " + compressionLevel);
			}
		}

	}

	private final boolean serverNoContextTakeover;

	private final boolean clientNoContextTakeover;

	private final int compressionLevel;

	private final Extension response;

	private PerMessageDeflate(boolean serverNoContextTakeover, boolean clientNoContextTakeover, int compressionLevel,
			Extension response) {
		this.serverNoContextTakeover = serverNoContextTakeover;
		this.clientNoContextTakeover = clientNoContextTakeover;
		this.compressionLevel = compressionLevel;
		this.response = response;
	}

	/**
	 * Returns the agreement to the first permessage-deflate offer the server accepts.
	 * @param offers the client's offers in its order, as {@link Extension#offered} reads them;
	 * other extensions are skipped
	 * @param options what the server agrees to
	 * @return the agreement, or {@code null} when no offer is acceptable
	 */
	public static PerMessageDeflate negotiate(List<Extension> offers, Options options) {
		for (Extension offer : offers) {
			PerMessageDeflate agreement = accept(offer, options);
			if (agreement != null) {
				return agreement;
			}
		}
		return null;
	}

	/**
	 * Returns the agreement to one offer, or {@code null} when the server declines it.
	 * @param offer an offer
	 * @param options what the server agrees to
	 * @return the agreement, or {@code null}
	 */
	public static PerMessageDeflate accept(Extension offer, Options options) {
		if (!NAME.equalsIgnoreCase(offer.name())) {
			return null;
		}
		boolean serverNoContext = !options.serverContextTakeover();
		boolean seenServerNoContext = false;
		boolean seenClientNoContext = false;
		int serverBits = -1;
		int clientBits = -1;
		for (Extension.Parameter parameter : offer.parameters()) {
			String name = parameter.name();
			String value = parameter.value();
			if (SERVER_NO_CONTEXT_TAKEOVER.equalsIgnoreCase(name) && !seenServerNoContext && value == null) {
				seenServerNoContext = true;
				serverNoContext = true;
			}
			else if (CLIENT_NO_CONTEXT_TAKEOVER.equalsIgnoreCase(name) && !seenClientNoContext && value == null) {
				seenClientNoContext = true;
			}
			else if (SERVER_MAX_WINDOW_BITS.equalsIgnoreCase(name) && serverBits == -1) {
				serverBits = windowBits(value);
				if (serverBits != 15) {
					// not a number of 8 to 15, or one the JDK's Deflater cannot honour: see the class comment
					return null;
				}
			}
			else if (CLIENT_MAX_WINDOW_BITS.equalsIgnoreCase(name) && clientBits == -1) {
				clientBits = (value != null) ? windowBits(value) : 0;
				if (clientBits < 0) {
					return null;
				}
			}
			else {
				return null;
			}
		}
		List<Extension.Parameter> answer = new ArrayList<>(3);
		if (serverNoContext) {
			answer.add(new Extension.Parameter(SERVER_NO_CONTEXT_TAKEOVER, null));
		}
		boolean clientNoContext = !options.clientContextTakeover();
		if (clientNoContext) {
			answer.add(new Extension.Parameter(CLIENT_NO_CONTEXT_TAKEOVER, null));
		}
		if (serverBits == 15) {
			answer.add(new Extension.Parameter(SERVER_MAX_WINDOW_BITS, "15"));
		}
		return new PerMessageDeflate(serverNoContext, clientNoContext, options.compressionLevel(),
				new Extension(NAME, answer));
	}

	/** A window size of 8 to 15 written without leading zeros (§7.1.2), else -1. */
	private static int windowBits(String value) {
		if (value == null || value.length() > 2 || value.isEmpty() || value.charAt(0) == '0') {
			return -1;
		}
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) < '0' || value.charAt(i) > '9') {
				return -1;
			}
		}
		int bits = Integer.parseInt(value);
		return (bits >= 8 && bits <= 15) ? bits : -1;
	}

	/**
	 * Returns whether the server resets its compressor after each message.
	 * @return whether {@code server_no_context_takeover} was agreed
	 */
	public boolean serverNoContextTakeover() {
		return this.serverNoContextTakeover;
	}

	/**
	 * Returns whether the client resets its compressor after each message, so the server may
	 * reset its decompressor.
	 * @return whether {@code client_no_context_takeover} was agreed
	 */
	public boolean clientNoContextTakeover() {
		return this.clientNoContextTakeover;
	}

	/**
	 * Returns the server's answer, for its {@value Extension#HEADER} field.
	 * @return the extension with the parameters the server answers with
	 */
	public Extension response() {
		return this.response;
	}

	/**
	 * Creates the compressor of what the server sends under this agreement, one per connection.
	 * @return a new compressor, which holds a {@link Deflater} once it has compressed a message
	 */
	public MessageDeflater newDeflater() {
		return new MessageDeflater(this.serverNoContextTakeover, this.compressionLevel);
	}

	@Override
	public String toString() {
		return this.response.toString();
	}

}
