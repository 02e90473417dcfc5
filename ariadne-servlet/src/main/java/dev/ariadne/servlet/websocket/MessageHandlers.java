package dev.ariadne.servlet.websocket;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;

/**
 * The message handlers of a {@link CoreJakartaSession}, one per kind of message (text, binary,
 * pong) as Jakarta WebSocket 2.2 §2.1.3 allows, and what each whole message becomes for its
 * handler's type. An endpoint upgraded without decoders takes the types the specification gives
 * every container: text as {@code String}, {@code Reader} or a primitive's wrapper, binary as
 * {@code ByteBuffer}, {@code byte[]} or {@code InputStream}, pieces of either as the first two,
 * and {@code PongMessage}. Any other type has no decoder: {@link IllegalStateException}, as the
 * specification says.
 *
 * <p>Handlers may be added and removed from any thread while messages arrive: each kind's
 * handler is published in one volatile field.
 */
final class MessageHandlers {

	/** Text as the wrappers of primitives (§4.1.3's decoders every container has). */
	private static final Map<Class<?>, Function<String, Object>> PRIMITIVES = Map.ofEntries(
			Map.entry(Boolean.class, Boolean::valueOf), Map.entry(boolean.class, Boolean::valueOf),
			Map.entry(Byte.class, Byte::valueOf), Map.entry(byte.class, Byte::valueOf),
			Map.entry(Short.class, Short::valueOf), Map.entry(short.class, Short::valueOf),
			Map.entry(Integer.class, Integer::valueOf), Map.entry(int.class, Integer::valueOf),
			Map.entry(Long.class, Long::valueOf), Map.entry(long.class, Long::valueOf),
			Map.entry(Float.class, Float::valueOf), Map.entry(float.class, Float::valueOf),
			Map.entry(Double.class, Double::valueOf), Map.entry(double.class, Double::valueOf),
			Map.entry(Character.class, MessageHandlers::character), Map.entry(char.class, MessageHandlers::character));

	private volatile Entry text;

	private volatile Entry binary;

	private volatile Entry pong;

	/**
	 * A handler with the type of message it takes.
	 * @param handler the handler
	 * @param type the type of its messages
	 * @param partial whether it takes pieces
	 */
	record Entry(MessageHandler handler, Class<?> type, boolean partial) {

		@SuppressWarnings("unchecked")
		void whole(Object message) {
			((MessageHandler.Whole<Object>) this.handler).onMessage(message);
		}

		@SuppressWarnings("unchecked")
		void part(Object piece, boolean last) {
			((MessageHandler.Partial<Object>) this.handler).onMessage(piece, last);
		}

	}

	void add(MessageHandler handler) {
		boolean partial = handler instanceof MessageHandler.Partial<?>;
		if (!partial && !(handler instanceof MessageHandler.Whole<?>)) {
			throw new IllegalStateException("A message handler must be a MessageHandler.Whole or a "
					+ "MessageHandler.Partial: " + handler.getClass().getName());
		}
		add(handler, messageType(handler, partial ? MessageHandler.Partial.class : MessageHandler.Whole.class),
				partial);
	}

	synchronized void add(MessageHandler handler, Class<?> type, boolean partial) {
		if (handler == null || type == null) {
			throw new IllegalArgumentException("A message handler and its message type are required");
		}
		Entry entry = new Entry(handler, type, partial);
		if (type == PongMessage.class) {
			if (partial) {
				throw new IllegalStateException("Pong messages come whole: " + handler.getClass().getName());
			}
			this.pong = vacant(this.pong, "pong", entry);
		}
		else if (type == String.class || (!partial && (type == Reader.class || PRIMITIVES.containsKey(type)))) {
			this.text = vacant(this.text, "text", entry);
		}
		else if (type == ByteBuffer.class || type == byte[].class || (!partial && type == InputStream.class)) {
			this.binary = vacant(this.binary, "binary", entry);
		}
		else {
			throw new IllegalStateException("No decoder for " + (partial ? "pieces of " : "") + "messages of type "
					+ type.getName() + ": the endpoint was upgraded without decoders");
		}
	}

	private static Entry vacant(Entry current, String kind, Entry entry) {
		if (current != null) {
			throw new IllegalStateException("The session has a " + kind + " message handler already: "
					+ current.handler().getClass().getName());
		}
		return entry;
	}

	synchronized void remove(MessageHandler handler) {
		if (this.text != null && this.text.handler() == handler) {
			this.text = null;
		}
		if (this.binary != null && this.binary.handler() == handler) {
			this.binary = null;
		}
		if (this.pong != null && this.pong.handler() == handler) {
			this.pong = null;
		}
	}

	Set<MessageHandler> all() {
		Set<MessageHandler> all = new HashSet<>();
		for (Entry entry : new Entry[] { this.text, this.binary, this.pong }) {
			if (entry != null) {
				all.add(entry.handler());
			}
		}
		return Set.copyOf(all);
	}

	Entry text() {
		return this.text;
	}

	Entry binary() {
		return this.binary;
	}

	Entry pong() {
		return this.pong;
	}

	/** Whether a handler takes pieces: the core then delivers every message so. */
	boolean partial() {
		Entry text = this.text;
		Entry binary = this.binary;
		return (text != null && text.partial()) || (binary != null && binary.partial());
	}

	/** A whole text message as its handler's type. */
	static Object text(Entry entry, String message) {
		if (entry.type() == String.class) {
			return message;
		}
		if (entry.type() == Reader.class) {
			return new StringReader(message);
		}
		return PRIMITIVES.get(entry.type()).apply(message);
	}

	/** A whole binary message, the handler's to keep, as its handler's type. */
	static Object binary(Entry entry, ByteBuffer message) {
		if (entry.type() == ByteBuffer.class) {
			return message;
		}
		byte[] bytes = bytes(message);
		return (entry.type() == byte[].class) ? bytes : new ByteArrayInputStream(bytes);
	}

	static byte[] bytes(ByteBuffer data) {
		if (data.hasArray() && data.arrayOffset() == 0 && data.position() == 0 && data.remaining() == data.array().length) {
			return data.array();
		}
		byte[] bytes = new byte[data.remaining()];
		data.get(bytes);
		return bytes;
	}

	private static Object character(String text) {
		if (text.length() != 1) {
			throw new IllegalArgumentException("Not one character: a text of " + text.length());
		}
		return text.charAt(0);
	}

	/**
	 * The type argument a handler's class gives {@code Whole} or {@code Partial}, through its
	 * superclasses and interfaces (an anonymous class or a named one; a lambda has none).
	 */
	static Class<?> messageType(MessageHandler handler, Class<?> kind) {
		Class<?> type = find(handler.getClass(), kind);
		if (type == null) {
			throw new IllegalStateException("Cannot tell the message type of handler " + handler.getClass().getName()
					+ " (a lambda?): add it with addMessageHandler(Class, handler)");
		}
		return type;
	}

	private static Class<?> find(Class<?> start, Class<?> kind) {
		for (Class<?> c = start; c != null && c != Object.class; c = c.getSuperclass()) {
			for (Type type : c.getGenericInterfaces()) {
				Class<?> found = argument(type, kind);
				if (found != null) {
					return found;
				}
				Class<?> raw = (type instanceof ParameterizedType p) ? (Class<?>) p.getRawType() : (Class<?>) type;
				if (raw != kind && kind.isAssignableFrom(raw)) {
					found = find(raw, kind);
					if (found != null) {
						return found;
					}
				}
			}
		}
		return null;
	}

	private static Class<?> argument(Type type, Class<?> kind) {
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == kind) {
			Type argument = parameterized.getActualTypeArguments()[0];
			if (argument instanceof Class<?> c) {
				return c;
			}
			if (argument instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
				return c;
			}
			if (argument instanceof TypeVariable<?>) {
				return null;
			}
		}
		return null;
	}

}
