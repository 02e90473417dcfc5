package dev.ariadne.http2;

/**
 * The dynamic table of RFC 7541 §2.3.2 and §4: a FIFO of fields, newest at index 1, whose size
 * (each entry's name and value octets plus 32, §4.1) never exceeds its capacity.
 *
 * <p>Entries live in a ring of parallel arrays, so an insertion or an eviction moves nothing; the
 * ring's length is a power of two (slots are masked, not divided) and grows, doubling, only until
 * it holds as many entries as the capacity allows. Names and
 * values are ISO-8859-1 strings: one octet per character. The encoder's lookups scan hashes kept
 * beside the entries, and compare strings only when a hash matches.
 */
final class HpackDynamicTable {

	/** What each entry costs beside its octets (§4.1). */
	static final int ENTRY_OVERHEAD = 32;

	private String[] names = new String[8];

	private String[] values = new String[8];

	/** Each entry's name hash, for {@link #find}. */
	private int[] nameHashes = new int[8];

	/** Each entry's name-and-value hash, for {@link #find}. */
	private int[] fieldHashes = new int[8];

	/** The ring slot of the oldest entry. */
	private int oldest;

	private int length;

	private long size;

	private int capacity;

	/**
	 * Creates an empty table.
	 * @param capacity its maximum size in octets
	 */
	HpackDynamicTable(int capacity) {
		this.capacity = capacity;
	}

	/**
	 * Returns the size an entry has in the table.
	 * @param nameLength the name's octets
	 * @param valueLength the value's octets
	 * @return the size in octets
	 */
	static long entrySize(long nameLength, long valueLength) {
		return nameLength + valueLength + ENTRY_OVERHEAD;
	}

	/**
	 * Returns the table's maximum size.
	 * @return the capacity in octets
	 */
	int capacity() {
		return this.capacity;
	}

	/**
	 * Returns the sum of the entries' sizes.
	 * @return the size in octets, at most {@link #capacity()}
	 */
	long size() {
		return this.size;
	}

	/**
	 * Returns how many entries the table holds.
	 * @return the number of entries
	 */
	int length() {
		return this.length;
	}

	/**
	 * Returns an entry's name.
	 * @param index 1 (newest) to {@link #length()}
	 * @return the name
	 */
	String name(int index) {
		return this.names[slot(index)];
	}

	/**
	 * Returns an entry's value.
	 * @param index 1 (newest) to {@link #length()}
	 * @return the value
	 */
	String value(int index) {
		return this.values[slot(index)];
	}

	/**
	 * Adds an entry as the newest, evicting the oldest ones until it fits; an entry larger than
	 * the capacity empties the table and is not added (§4.4).
	 * @param name the name
	 * @param value the value
	 */
	void add(String name, String value) {
		long entry = entrySize(name.length(), value.length());
		if (entry > this.capacity) {
			clear();
			return;
		}
		evictTo(this.capacity - entry);
		if (this.length == this.names.length) {
			grow();
		}
		int slot = (this.oldest + this.length) & (this.names.length - 1);
		this.names[slot] = name;
		this.values[slot] = value;
		this.nameHashes[slot] = name.hashCode();
		this.fieldHashes[slot] = fieldHash(name.hashCode(), value);
		this.length++;
		this.size += entry;
	}

	/**
	 * Removes every entry.
	 */
	void clear() {
		evictTo(0);
	}

	/**
	 * Changes the capacity, evicting the oldest entries until the table fits (§4.3).
	 * @param capacity the new maximum size in octets
	 */
	void capacity(int capacity) {
		this.capacity = capacity;
		evictTo(capacity);
	}

	/**
	 * Finds an entry, for the encoder: one with the name and the value, else one with the name.
	 * @param name the name
	 * @param value the value
	 * @return the index of an entry with both; else minus the index of the newest entry with the
	 * name; else 0
	 */
	int find(String name, String value) {
		int nameHash = name.hashCode();
		int fieldHash = fieldHash(nameHash, value);
		int nameOnly = 0;
		int mask = this.names.length - 1;
		for (int index = 1, slot = (this.oldest + this.length - 1) & mask; index <= this.length; index++,
				slot = (slot - 1) & mask) {
			if (this.fieldHashes[slot] == fieldHash && this.names[slot].equals(name)
					&& this.values[slot].equals(value)) {
				return index;
			}
			if (nameOnly == 0 && this.nameHashes[slot] == nameHash && this.names[slot].equals(name)) {
				nameOnly = -index;
			}
		}
		return nameOnly;
	}

	private static int fieldHash(int nameHash, String value) {
		return nameHash * 31 + value.hashCode();
	}

	private int slot(int index) {
		return (this.oldest + this.length - index) & (this.names.length - 1);
	}

	private void evictTo(long target) {
		while (this.size > target) {
			String name = this.names[this.oldest];
			String value = this.values[this.oldest];
			this.size -= entrySize(name.length(), value.length());
			// Drop the references, so an evicted entry's strings can be collected.
			this.names[this.oldest] = null;
			this.values[this.oldest] = null;
			this.oldest = (this.oldest + 1) & (this.names.length - 1);
			this.length--;
		}
		if (this.length == 0) {
			this.oldest = 0;
		}
	}

	private void grow() {
		int old = this.names.length;
		String[] grownNames = new String[old * 2];
		String[] grownValues = new String[old * 2];
		int[] grownNameHashes = new int[old * 2];
		int[] grownFieldHashes = new int[old * 2];
		for (int i = 0; i < this.length; i++) {
			int slot = (this.oldest + i) & (old - 1);
			grownNames[i] = this.names[slot];
			grownValues[i] = this.values[slot];
			grownNameHashes[i] = this.nameHashes[slot];
			grownFieldHashes[i] = this.fieldHashes[slot];
		}
		this.names = grownNames;
		this.values = grownValues;
		this.nameHashes = grownNameHashes;
		this.fieldHashes = grownFieldHashes;
		this.oldest = 0;
	}

}
