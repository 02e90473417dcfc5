package dev.ariadne.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of header fields whose names compare case-insensitively. Repeated fields keep
 * one entry each, in arrival order.
 *
 * <p>Not thread-safe: a request's headers belong to the thread handling it.
 */
public final class Headers {

	private String[] names;

	private String[] values;

	private int size;

	/** Fields added and values replaced so far: what may need checking again. */
	private int writes;

	/**
	 * Creates an empty list of fields.
	 */
	public Headers() {
		this(8);
	}

	Headers(int capacity) {
		this.names = new String[capacity];
		this.values = new String[capacity];
	}

	/**
	 * Checks that a field can be written without breaking the message framing: the name is a
	 * token and the value has no CR, LF or other control character except HTAB.
	 * @param name the field name
	 * @param value the field value
	 * @throws IllegalArgumentException if the field would be unsafe on the wire
	 */
	public static void validate(String name, String value) {
		if (name == null || name.isEmpty() || !Ascii.isToken(name)) {
			throw new IllegalArgumentException("Header name is not an HTTP token: '" + name + "'");
		}
		if (value == null) {
			throw new IllegalArgumentException("Header '" + name + "' has no value");
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c > 0xFF || !Ascii.isFieldValue((byte) c)) {
				throw new IllegalArgumentException("Header '" + name + "' has a control character (CR, LF or "
						+ "other) or a non-Latin-1 character at index " + i + "; it is never written");
			}
		}
	}

	/**
	 * Returns whether a field is safe on the wire, as {@link #validate} requires, without saying
	 * why not.
	 * @param name the field name, or {@code null}
	 * @param value the field value, or {@code null}
	 * @return whether {@link #validate} would accept it
	 */
	public static boolean isValid(String name, String value) {
		if (name == null || name.isEmpty() || !Ascii.isToken(name) || value == null) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (!isValueChar(value.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Returns whether a string is an HTTP token (RFC 9110 §5.6.2), as field names and methods are.
	 * @param text the string
	 * @return whether it is a non-empty token
	 */
	public static boolean isToken(CharSequence text) {
		return text.length() > 0 && Ascii.isToken(text);
	}

	/**
	 * Returns whether a character may be part of a field name (a token character).
	 * @param c the character
	 * @return whether it is a token character
	 */
	public static boolean isTokenChar(char c) {
		return c <= 0xFF && Ascii.isToken((byte) c);
	}

	/**
	 * Returns whether a character may be part of a {@code Host} value, or an HTTP/2
	 * {@code :authority}: a host and port (RFC 3986 §3.2.2).
	 * @param c the character
	 * @return whether it is allowed in a host and port
	 */
	public static boolean isHostChar(char c) {
		return Ascii.isHost(c);
	}

	/**
	 * Returns whether a character may be part of a field value: visible, obs-text, SP or HTAB,
	 * never CR, LF or another control character (RFC 9110 §5.5).
	 * @param c the character
	 * @return whether it is allowed in a value
	 */
	public static boolean isValueChar(char c) {
		return c <= 0xFF && Ascii.isFieldValue((byte) c);
	}

	/**
	 * Appends a field, keeping any field of the same name.
	 * @param name the field name
	 * @param value the field value
	 * @return this list
	 */
	public Headers add(String name, String value) {
		if (this.size == this.names.length) {
			this.names = Arrays.copyOf(this.names, this.size * 2);
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.names[this.size] = name;
		this.values[this.size] = value;
		this.size++;
		this.writes++;
		return this;
	}

	/**
	 * Replaces every field of this name with one field.
	 * @param name the field name
	 * @param value the field value
	 * @return this list
	 */
	public Headers set(String name, String value) {
		int index = indexOf(name, 0);
		if (index < 0) {
			return add(name, value);
		}
		this.values[index] = value;
		this.writes++;
		removeFrom(name, index + 1);
		return this;
	}

	/**
	 * Removes every field of this name.
	 * @param name the field name
	 * @return whether a field was removed
	 */
	public boolean remove(String name) {
		int before = this.size;
		removeFrom(name, 0);
		return this.size != before;
	}

	private void removeFrom(String name, int from) {
		int kept = from;
		for (int i = from; i < this.size; i++) {
			if (!matches(this.names[i], name)) {
				this.names[kept] = this.names[i];
				this.values[kept] = this.values[i];
				kept++;
			}
		}
		Arrays.fill(this.names, kept, this.size, null);
		Arrays.fill(this.values, kept, this.size, null);
		this.size = kept;
	}

	/**
	 * Returns the value of the first field of this name.
	 * @param name the field name, in any case
	 * @return the value, or {@code null} when absent
	 */
	public String get(String name) {
		int index = indexOf(name, 0);
		return (index >= 0) ? this.values[index] : null;
	}

	/**
	 * Returns the values of every field of this name, in order.
	 * @param name the field name, in any case
	 * @return the values, empty when absent
	 */
	public List<String> all(String name) {
		int index = indexOf(name, 0);
		if (index < 0) {
			return Collections.emptyList();
		}
		List<String> result = new ArrayList<>(2);
		for (int i = index; i < this.size; i++) {
			if (matches(this.names[i], name)) {
				result.add(this.values[i]);
			}
		}
		return result;
	}

	/**
	 * Returns whether a field of this name is present.
	 * @param name the field name, in any case
	 * @return whether present
	 */
	public boolean contains(String name) {
		return indexOf(name, 0) >= 0;
	}

	/**
	 * Returns whether a field of this name carries the token in its comma-separated value,
	 * ignoring case (as for {@code Connection: close}).
	 * @param name the field name
	 * @param token the token to find
	 * @return whether any field of that name lists the token
	 */
	public boolean containsToken(String name, String token) {
		for (int i = indexOf(name, 0); i >= 0 && i < this.size; i++) {
			if (matches(this.names[i], name) && listsToken(this.values[i], token)) {
				return true;
			}
		}
		return false;
	}

	static boolean listsToken(String value, String token) {
		int length = value.length();
		int start = 0;
		while (start <= length) {
			int comma = value.indexOf(',', start);
			int end = (comma < 0) ? length : comma;
			int s = start;
			int e = end;
			while (s < e && isOws(value.charAt(s))) {
				s++;
			}
			while (e > s && isOws(value.charAt(e - 1))) {
				e--;
			}
			if (e - s == token.length() && value.regionMatches(true, s, token, 0, token.length())) {
				return true;
			}
			if (comma < 0) {
				return false;
			}
			start = comma + 1;
		}
		return false;
	}

	private static boolean isOws(char c) {
		return c == ' ' || c == '\t';
	}

	/**
	 * Returns the number of fields.
	 * @return the field count
	 */
	public int size() {
		return this.size;
	}

	/**
	 * Returns whether there are no fields.
	 * @return whether empty
	 */
	public boolean isEmpty() {
		return this.size == 0;
	}

	/**
	 * Returns the name of the field at an index, in arrival order.
	 * @param index from 0 to {@link #size()} - 1
	 * @return the field name
	 */
	public String name(int index) {
		checkIndex(index);
		return this.names[index];
	}

	/**
	 * Returns the value of the field at an index, in arrival order.
	 * @param index from 0 to {@link #size()} - 1
	 * @return the field value
	 */
	public String value(int index) {
		checkIndex(index);
		return this.values[index];
	}

	/**
	 * Returns how many times a field was added or a value replaced in this list: when it has not
	 * changed since every field was checked, none needs checking again. Removing fields does not
	 * count, as it cannot make the list invalid.
	 * @return the count, only ever growing
	 */
	public int writes() {
		return this.writes;
	}

	/**
	 * Removes every field.
	 */
	public void clear() {
		Arrays.fill(this.names, 0, this.size, null);
		Arrays.fill(this.values, 0, this.size, null);
		this.size = 0;
	}

	private void checkIndex(int index) {
		if (index < 0 || index >= this.size) {
			throw new IndexOutOfBoundsException(index);
		}
	}

	private int indexOf(String name, int from) {
		for (int i = from; i < this.size; i++) {
			if (matches(this.names[i], name)) {
				return i;
			}
		}
		return -1;
	}

	private static boolean matches(String stored, String name) {
		return stored == name || stored.equalsIgnoreCase(name);
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < this.size; i++) {
			text.append(this.names[i]).append(": ").append(this.values[i]).append('\n');
		}
		return text.toString();
	}

}
