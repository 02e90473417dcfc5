package dev.ariadne.http2;

/**
 * Receives the fields of one header block as {@link HpackDecoder} decodes them, in order.
 *
 * <p>It cannot stop the decoder: a block must be decoded to its end whatever its fields are, or
 * the dynamic table would no longer match the peer's (RFC 7541 §2.2). A listener that finds a
 * field it refuses records that and reports it once the block is done.
 */
@FunctionalInterface
public interface HeaderListener {

	/**
	 * One decoded field. Names are as sent (HPACK does not change case; checking that they are
	 * lower case is the caller's, RFC 9113 §8.2.1); pseudo-header names start with {@code ':'}.
	 * @param name the field name, never empty
	 * @param value the field value, possibly empty
	 */
	void field(String name, String value);

}
