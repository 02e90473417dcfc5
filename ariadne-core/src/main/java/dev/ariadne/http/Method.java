package dev.ariadne.http;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A request method. The standard methods are constants, so they compare by identity when they
 * come from the parser; other tokens are accepted and become new instances.
 */
public final class Method {

	/** {@code GET}. */
	public static final Method GET = new Method("GET");

	/** {@code HEAD}. */
	public static final Method HEAD = new Method("HEAD");

	/** {@code POST}. */
	public static final Method POST = new Method("POST");

	/** {@code PUT}. */
	public static final Method PUT = new Method("PUT");

	/** {@code DELETE}. */
	public static final Method DELETE = new Method("DELETE");

	/** {@code PATCH}. */
	public static final Method PATCH = new Method("PATCH");

	/** {@code OPTIONS}. */
	public static final Method OPTIONS = new Method("OPTIONS");

	/** {@code TRACE}. */
	public static final Method TRACE = new Method("TRACE");

	/** {@code CONNECT}. */
	public static final Method CONNECT = new Method("CONNECT");

	private static final Method[] KNOWN = { GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT };

	private final String name;

	private final byte[] bytes;

	private Method(String name) {
		this.name = name;
		this.bytes = name.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Returns the method with the given name, a constant when the name is a standard method.
	 * Method names are case-sensitive.
	 * @param name the method token
	 * @return the method
	 * @throws IllegalArgumentException if the name is not an HTTP token
	 */
	public static Method of(String name) {
		Objects.requireNonNull(name, "name");
		for (Method known : KNOWN) {
			if (known.name.equals(name)) {
				return known;
			}
		}
		if (name.isEmpty() || !Ascii.isToken(name)) {
			throw new IllegalArgumentException("Not an HTTP method token: '" + name + "'");
		}
		return new Method(name);
	}

	/**
	 * Returns the method spelled by bytes already checked to be a token, without building a
	 * string for the standard methods.
	 */
	static Method of(byte[] buf, int start, int end) {
		int length = end - start;
		for (Method known : KNOWN) {
			if (known.bytes.length == length && Ascii.equals(known.bytes, buf, start)) {
				return known;
			}
		}
		return new Method(new String(buf, start, length, StandardCharsets.ISO_8859_1));
	}

	/**
	 * Returns the method token.
	 * @return the name, for example {@code GET}
	 */
	public String name() {
		return this.name;
	}

	@Override
	public boolean equals(Object other) {
		return this == other || (other instanceof Method method && this.name.equals(method.name));
	}

	@Override
	public int hashCode() {
		return this.name.hashCode();
	}

	@Override
	public String toString() {
		return this.name;
	}

}
