package dev.ariadne.http2;

import java.nio.ByteBuffer;

/**
 * Encodes header blocks with HPACK (RFC 7541), keeping the dynamic table that the peer's decoder
 * mirrors for what this side sends.
 *
 * <p>Usage: {@link #startBlock()}, {@link #add} each field in order, then {@link #endBlock()},
 * whose block must be sent (split into {@code HEADERS} and {@code CONTINUATION} frames) before
 * the next block is started: the peer's table follows every block in order. One encoder serves
 * one connection; it is not thread-safe and keeps no thread. It writes into one reusable,
 * growable array and allocates nothing per field, except the table's own growth.
 *
 * <p>The policy, per field:
 * <ul>
 * <li>a name and value found in the static or dynamic table is sent as an index (§6.1);</li>
 * <li>{@code authorization}, {@code proxy-authorization}, {@code cookie} and {@code set-cookie}
 * are sent as literals never indexed (§6.2.3), whatever the caller says. They carry credentials
 * or session secrets that an attacker who can add fields to the same connection could guess
 * through the compressed size (§7.1); a proxy in front of the server carries many users'
 * responses over one connection, so the table is shared between them. Such values also differ
 * per user, so indexing them would only evict entries that do get reused;</li>
 * <li>a field the caller marks sensitive is sent never indexed, its name indexed when it is in a
 * table (§7.1.3);</li>
 * <li>another field is added to the dynamic table (§6.2.1) when it takes at most three quarters of
 * the table, so that one entry never flushes the table; a larger one is sent without indexing
 * (§6.2.2);</li>
 * <li>each literal string is Huffman-encoded only when that is shorter (§5.2).</li>
 * </ul>
 *
 * <p>Names are expected lower case (RFC 9113 §8.2.1: the caller lowercases), and names and values
 * to be of ISO-8859-1 characters, one octet each.
 */
public final class HpackEncoder {

	/** Output arrays beyond this are replaced at the next block, so one huge block is not kept. */
	private static final int OUTPUT_KEPT = 64 * 1024;

	private static final int INDEXED = 0x80;

	private static final int INCREMENTAL = 0x40;

	private static final int SIZE_UPDATE = 0x20;

	private static final int NEVER_INDEXED = 0x10;

	private static final int WITHOUT_INDEXING = 0x00;

	private final int maxTableSize;

	private final HpackDynamicTable table;

	/** Whether the table's size changed since the last block began, so an update is due. */
	private boolean updatePending;

	/** The smallest size the table had since the last block began, when an update is due. */
	private int smallestPending;

	private boolean huffman = true;

	private byte[] out = new byte[1024];

	private int length;

	/** A read-only view of {@link #out}, made again only when the array grows. */
	private ByteBuffer view;

	private boolean inBlock;

	/**
	 * Creates an encoder with the usual table size, {@value Settings#DEFAULT_HEADER_TABLE_SIZE}.
	 */
	public HpackEncoder() {
		this(Settings.DEFAULT_HEADER_TABLE_SIZE);
	}

	/**
	 * Creates an encoder. Until {@link #peerMaxTableSize} says otherwise the peer's setting is the
	 * initial {@value Settings#DEFAULT_HEADER_TABLE_SIZE}; a table smaller than that is announced
	 * at the start of the first block.
	 * @param maxTableSize the largest dynamic table this side is willing to keep for what it sends
	 */
	public HpackEncoder(int maxTableSize) {
		if (maxTableSize < 0) {
			throw new IllegalArgumentException("Table size must not be negative");
		}
		this.maxTableSize = maxTableSize;
		this.table = new HpackDynamicTable(Settings.DEFAULT_HEADER_TABLE_SIZE);
		peerMaxTableSize(Settings.DEFAULT_HEADER_TABLE_SIZE);
	}

	/**
	 * Applies the peer's {@code SETTINGS_HEADER_TABLE_SIZE}: the table becomes the smaller of it
	 * and this side's own maximum, evicting at once, and the change is announced at the start of
	 * the next block (RFC 7541 §4.2). Several changes before that block announce the smallest
	 * size they reached and then the final one.
	 * @param size the peer's setting; a value above 2<sup>31</sup>-1 is passed as
	 * {@link Integer#MAX_VALUE}
	 */
	public void peerMaxTableSize(int size) {
		if (size < 0) {
			throw new IllegalArgumentException("Table size must not be negative");
		}
		int effective = Math.min(size, this.maxTableSize);
		if (effective == this.table.capacity()) {
			return;
		}
		this.table.capacity(effective);
		this.smallestPending = this.updatePending ? Math.min(this.smallestPending, effective) : effective;
		this.updatePending = true;
	}

	/**
	 * Starts a header block, discarding the previous one (and invalidating its buffer).
	 */
	public void startBlock() {
		if (this.out.length > OUTPUT_KEPT) {
			this.out = new byte[1024];
			this.view = null;
		}
		this.length = 0;
		this.inBlock = true;
		if (this.updatePending) {
			if (this.smallestPending < this.table.capacity()) {
				integer(SIZE_UPDATE, 5, this.smallestPending);
			}
			integer(SIZE_UPDATE, 5, this.table.capacity());
			this.updatePending = false;
		}
	}

	/**
	 * Adds a field that is not sensitive to the block.
	 * @param name the name, lower case
	 * @param value the value
	 */
	public void add(String name, String value) {
		add(name, value, false);
	}

	/**
	 * Adds a field to the block. On an exception, the block and the table are as they were before
	 * the call.
	 * @param name the name, lower case
	 * @param value the value
	 * @param sensitive whether the value must never be indexed, by this encoder or by an
	 * intermediary that re-encodes it (§7.1.3)
	 * @throws IllegalArgumentException if a character is above 255
	 * @throws IllegalStateException outside {@link #startBlock()} and {@link #endBlock()}
	 */
	public void add(String name, String value, boolean sensitive) {
		if (!this.inBlock) {
			throw new IllegalStateException("No block started");
		}
		boolean secret = sensitive || neverIndexed(name);
		int staticIndex = HpackStaticTable.indexOf(name, value);
		if (staticIndex != 0 && !secret) {
			integer(INDEXED, 7, staticIndex);
			return;
		}
		int found = this.table.find(name, value);
		if (found > 0 && !secret) {
			integer(INDEXED, 7, HpackStaticTable.LENGTH + found);
			return;
		}
		int nameIndex = (staticIndex != 0) ? staticIndex : HpackStaticTable.indexOf(name);
		if (nameIndex == 0 && found != 0) {
			nameIndex = HpackStaticTable.LENGTH + Math.abs(found);
		}
		// Both lengths first: they check the characters before anything is written.
		long nameHuffman = (nameIndex == 0) ? HpackHuffman.encodedLength(name) : 0;
		long valueHuffman = HpackHuffman.encodedLength(value);
		boolean index = !secret
				&& HpackDynamicTable.entrySize(name.length(), value.length()) <= this.table.capacity() * 3L / 4;
		if (index) {
			integer(INCREMENTAL, 6, nameIndex);
		}
		else {
			integer(secret ? NEVER_INDEXED : WITHOUT_INDEXING, 4, nameIndex);
		}
		if (nameIndex == 0) {
			string(name, nameHuffman);
		}
		string(value, valueHuffman);
		if (index) {
			this.table.add(name, value);
		}
	}

	/**
	 * Ends the block.
	 * @return a read-only view of the encoded block in this encoder's own array, valid until the
	 * next {@link #startBlock()}
	 * @throws IllegalStateException if no block was started
	 */
	public ByteBuffer endBlock() {
		if (!this.inBlock) {
			throw new IllegalStateException("No block started");
		}
		this.inBlock = false;
		if (this.view == null) {
			this.view = ByteBuffer.wrap(this.out).asReadOnlyBuffer();
		}
		this.view.clear();
		this.view.limit(this.length);
		return this.view;
	}

	/**
	 * Turns Huffman encoding off, for tests that expect the RFC's examples without it.
	 * @param huffman whether strings may be Huffman-encoded
	 */
	void huffman(boolean huffman) {
		this.huffman = huffman;
	}

	/**
	 * Returns the dynamic table, for tests that compare it with a decoder's.
	 * @return the table
	 */
	HpackDynamicTable table() {
		return this.table;
	}

	/**
	 * Writes an integer of RFC 7541 §5.1 into the block.
	 * @param flags the bits of the first octet above the prefix
	 * @param prefixBits the prefix's size, 1 to 8
	 * @param value the value, not negative
	 */
	void integer(int flags, int prefixBits, int value) {
		ensure(6);
		int max = (1 << prefixBits) - 1;
		if (value < max) {
			this.out[this.length++] = (byte) (flags | value);
			return;
		}
		this.out[this.length++] = (byte) (flags | max);
		int rest = value - max;
		while (rest >= 0x80) {
			this.out[this.length++] = (byte) ((rest & 0x7F) | 0x80);
			rest >>>= 7;
		}
		this.out[this.length++] = (byte) rest;
	}

	private static boolean neverIndexed(String name) {
		return switch (name) {
			case "authorization", "proxy-authorization", "cookie", "set-cookie" -> true;
			default -> false;
		};
	}

	private void string(String text, long huffmanLength) {
		if (this.huffman && huffmanLength < text.length()) {
			integer(0x80, 7, (int) huffmanLength);
			ensure((int) huffmanLength);
			this.length = HpackHuffman.encode(text, this.out, this.length);
			return;
		}
		integer(0x00, 7, text.length());
		ensure(text.length());
		for (int i = 0; i < text.length(); i++) {
			this.out[this.length++] = (byte) text.charAt(i);
		}
	}

	private void ensure(int more) {
		if (this.out.length - this.length < more) {
			byte[] grown = new byte[Math.max(this.length + more, this.out.length * 2)];
			System.arraycopy(this.out, 0, grown, 0, this.length);
			this.out = grown;
			this.view = null;
		}
	}

}
