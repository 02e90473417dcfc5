package dev.ariadne.http2;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Decodes HPACK header blocks (RFC 7541) into fields, keeping the dynamic table that the peer's
 * encoder builds for one direction of a connection.
 *
 * <p>Usage: call {@link #decode} once per complete header block ({@code HEADERS} and its
 * {@code CONTINUATION}s, assembled and size-capped by the frame layer), in the order the blocks
 * arrived. One decoder serves one connection; it is not thread-safe and keeps no thread. Every
 * error is a {@link ErrorCode#COMPRESSION_ERROR} connection error (RFC 9113 §4.3), after which
 * the decoder's state is undefined and the connection must end; fields reported before the error
 * belong to a block that is void.
 *
 * <p>The header list limit ({@code SETTINGS_MAX_HEADER_LIST_SIZE}, RFC 9113 §6.5.2) is a defence
 * against blocks that expand far beyond their size: once the fields decoded so far exceed it,
 * {@code decode} still reads the block to its end and keeps the dynamic table in step, but
 * creates no more strings for fields and reports none, and returns {@code false}. A small block
 * that references a large table entry many times therefore costs time linear in its size and
 * allocates nothing.
 *
 * <p>Octets become strings as ISO-8859-1, one character per octet; checking the characters is
 * the HTTP layer's. Names and values of static table entries are shared constants, and those of
 * dynamic table entries are shared between all the fields that reference them.
 */
public final class HpackDecoder {

	/** Scratch buffers beyond this are given back after the block that needed them. */
	private static final int SCRATCH_KEPT = 64 * 1024;

	private final HpackDynamicTable table;

	private final long maxHeaderListSize;

	private int maxTableSize;

	/** Whether the next block must start with a size update: our setting went below the table. */
	private boolean updateRequired;

	/** Holds a literal's name and value octets while deciding whether to make strings of them. */
	private byte[] scratch = new byte[256];

	/** The header list size of the block being decoded (RFC 9113 §6.5.2). */
	private long listSize;

	/** Whether the block's fields so far are within the header list limit. */
	private boolean withinLimit;

	/**
	 * Creates a decoder whose dynamic table starts with the setting in force as its capacity.
	 *
	 * <p>A setting binds the peer only once it has acknowledged it (RFC 9113 §6.5.3), and a client
	 * may send requests before that: a side that advertises less than
	 * {@value Settings#DEFAULT_HEADER_TABLE_SIZE} passes {@value Settings#DEFAULT_HEADER_TABLE_SIZE}
	 * here and its own value to {@link #maxTableSize(int)} on the acknowledgement.
	 * @param maxTableSize the {@code SETTINGS_HEADER_TABLE_SIZE} in force: the largest table the
	 * peer may ask for
	 * @param maxHeaderListSize the largest header list reported whole, in octets counted as
	 * RFC 9113 §6.5.2 counts them ({@link Long#MAX_VALUE} for no limit)
	 */
	public HpackDecoder(int maxTableSize, long maxHeaderListSize) {
		if (maxTableSize < 0 || maxHeaderListSize < 0) {
			throw new IllegalArgumentException("Sizes must not be negative");
		}
		this.table = new HpackDynamicTable(maxTableSize);
		this.maxTableSize = maxTableSize;
		this.maxHeaderListSize = maxHeaderListSize;
	}

	/**
	 * Changes the largest table the peer may ask for, once the peer has acknowledged a new
	 * {@code SETTINGS_HEADER_TABLE_SIZE}. When it is below the table's current size, the next block
	 * must start with a size update that obeys it (RFC 7541 §4.2).
	 * @param maxTableSize the new setting
	 */
	public void maxTableSize(int maxTableSize) {
		if (maxTableSize < 0) {
			throw new IllegalArgumentException("Size must not be negative");
		}
		this.maxTableSize = maxTableSize;
		if (maxTableSize < this.table.capacity()) {
			this.updateRequired = true;
		}
	}

	/**
	 * Decodes one complete header block, from the buffer's position to its limit, and reports its
	 * fields in order.
	 * @param block the header block; its position is advanced to its limit
	 * @param listener where the fields go, until the header list limit is exceeded
	 * @return {@code true} when every field was reported, {@code false} when the header list
	 * exceeded the limit and the fields after the last one that fitted were dropped
	 * @throws Http2Exception a {@link ErrorCode#COMPRESSION_ERROR} connection error
	 */
	public boolean decode(ByteBuffer block, HeaderListener listener) throws Http2Exception {
		this.listSize = 0;
		this.withinLimit = true;
		int updates = 0;
		boolean fields = false;
		while (block.hasRemaining()) {
			int first = block.get() & 0xFF;
			if ((first & 0xE0) == 0x20) {
				sizeUpdate(integer(block, first, 5), fields, ++updates);
				continue;
			}
			if (!fields && this.updateRequired) {
				throw error("Missing dynamic table size update after SETTINGS_HEADER_TABLE_SIZE was reduced");
			}
			fields = true;
			if ((first & 0x80) != 0) {
				indexed(integer(block, first, 7), listener);
			}
			else if ((first & 0x40) != 0) {
				literal(block, integer(block, first, 6), true, listener);
			}
			else {
				// Without indexing (0000) and never indexed (0001) decode alike (§6.2.2, §6.2.3).
				literal(block, integer(block, first, 4), false, listener);
			}
		}
		if (this.scratch.length > SCRATCH_KEPT) {
			this.scratch = new byte[256];
		}
		return this.withinLimit;
	}

	/**
	 * Returns the dynamic table's current size, for tests.
	 * @return the sum of its entries' sizes in octets
	 */
	long tableSize() {
		return this.table.size();
	}

	/**
	 * Returns the dynamic table, for tests that compare it with an encoder's.
	 * @return the table
	 */
	HpackDynamicTable table() {
		return this.table;
	}

	/**
	 * Reads an integer of RFC 7541 §5.1, whose first octet has been read.
	 * @param block the octets after the first
	 * @param first the first octet, its prefix in the low bits
	 * @param prefixBits the prefix's size, 1 to 8
	 * @return the value, at most 2<sup>31</sup>-1
	 * @throws Http2Exception if the integer overflows or the block ends inside it
	 */
	static int integer(ByteBuffer block, int first, int prefixBits) throws Http2Exception {
		int max = (1 << prefixBits) - 1;
		int value = first & max;
		if (value < max) {
			return value;
		}
		long result = max;
		// Five continuation octets carry 35 bits: more than an int, so a sixth is never needed.
		for (int shift = 0; shift <= 28; shift += 7) {
			if (!block.hasRemaining()) {
				throw error("Header block ends inside an integer");
			}
			int octet = block.get();
			result += (long) (octet & 0x7F) << shift;
			if (result > Integer.MAX_VALUE) {
				break;
			}
			if ((octet & 0x80) == 0) {
				return (int) result;
			}
		}
		throw error("Integer above 2^31-1");
	}

	private void sizeUpdate(int size, boolean afterField, int updates) throws Http2Exception {
		if (afterField) {
			throw error("Dynamic table size update after a field (RFC 7541 §4.2)");
		}
		if (updates > 2) {
			throw error("More than two dynamic table size updates in a block (RFC 7541 §4.2)");
		}
		if (size > this.maxTableSize) {
			throw error("Dynamic table size update above SETTINGS_HEADER_TABLE_SIZE");
		}
		this.table.capacity(size);
		this.updateRequired = false;
	}

	private void indexed(int index, HeaderListener listener) throws Http2Exception {
		if (index == 0) {
			throw error("Indexed field with index 0");
		}
		String name = name(index);
		String value = (index <= HpackStaticTable.LENGTH) ? HpackStaticTable.value(index)
				: this.table.value(index - HpackStaticTable.LENGTH);
		if (admit(name.length(), value.length())) {
			listener.field(name, value);
		}
	}

	/**
	 * Reads a literal field (§6.2) after its first octet. Its octets go to the scratch buffer
	 * first; strings are made only of what the table keeps or the listener gets.
	 */
	private void literal(ByteBuffer block, int nameIndex, boolean indexing, HeaderListener listener)
			throws Http2Exception {
		String name = (nameIndex != 0) ? name(nameIndex) : null;
		int nameLength;
		if (name != null) {
			nameLength = name.length();
		}
		else {
			nameLength = string(block, 0);
			if (nameLength == 0) {
				// Legal HPACK but never a valid HTTP field, and the listener is promised a name.
				throw error("Literal field with an empty name");
			}
		}
		int valueOffset = (name != null) ? 0 : nameLength;
		int valueLength = string(block, valueOffset);
		boolean report = admit(nameLength, valueLength);
		boolean store = indexing && HpackDynamicTable.entrySize(nameLength, valueLength) <= this.table.capacity();
		if (indexing && !store) {
			// An entry larger than the table empties it (§4.4); no need to make its strings.
			this.table.clear();
		}
		if (!report && !store) {
			return;
		}
		if (name == null) {
			name = new String(this.scratch, 0, nameLength, StandardCharsets.ISO_8859_1);
		}
		String value = (valueLength == 0) ? "" : new String(this.scratch, valueOffset, valueLength,
				StandardCharsets.ISO_8859_1);
		if (store) {
			this.table.add(name, value);
		}
		if (report) {
			listener.field(name, value);
		}
	}

	/** Counts a field into the header list; whether it and all before it are within the limit. */
	private boolean admit(int nameLength, int valueLength) {
		if (!this.withinLimit) {
			return false;
		}
		this.listSize += HpackDynamicTable.entrySize(nameLength, valueLength);
		this.withinLimit = this.listSize <= this.maxHeaderListSize;
		return this.withinLimit;
	}

	/** Reads a string literal (§5.2) into the scratch buffer at an offset; returns its length. */
	private int string(ByteBuffer block, int offset) throws Http2Exception {
		if (!block.hasRemaining()) {
			throw error("Header block ends before a string literal");
		}
		int first = block.get() & 0xFF;
		int length = integer(block, first, 7);
		if (length > block.remaining()) {
			throw error("String literal longer than the rest of the header block");
		}
		if ((first & 0x80) == 0) {
			ensureScratch(offset + length);
			block.get(this.scratch, offset, length);
			return length;
		}
		ensureScratch(offset + HpackHuffman.maxDecodedLength(length));
		return HpackHuffman.decode(block, length, this.scratch, offset);
	}

	private void ensureScratch(int needed) {
		if (needed > this.scratch.length) {
			byte[] grown = new byte[Math.max(needed, this.scratch.length * 2)];
			// A name may already be there, waiting for its value.
			System.arraycopy(this.scratch, 0, grown, 0, this.scratch.length);
			this.scratch = grown;
		}
	}

	private String name(int index) throws Http2Exception {
		if (index <= HpackStaticTable.LENGTH) {
			return HpackStaticTable.name(index);
		}
		int dynamic = index - HpackStaticTable.LENGTH;
		if (dynamic > this.table.length()) {
			throw error("Index past the static and dynamic tables");
		}
		return this.table.name(dynamic);
	}

	private static Http2Exception error(String reason) {
		return Http2Exception.connection(ErrorCode.COMPRESSION_ERROR, reason);
	}

}
