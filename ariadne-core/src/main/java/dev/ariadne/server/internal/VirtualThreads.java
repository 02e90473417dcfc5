package dev.ariadne.server.internal;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.ThreadFactory;

/**
 * The one reflective door to virtual threads: the project compiles for Java 17, where
 * {@code Thread.ofVirtual()} does not exist.
 */
public final class VirtualThreads {

	private VirtualThreads() {
	}

	/**
	 * Returns whether this JVM has virtual threads (Java 21 or later).
	 * @return whether virtual threads can be created
	 */
	public static boolean available() {
		return Runtime.version().feature() >= 21;
	}

	/**
	 * Returns a factory of virtual threads named {@code prefix1}, {@code prefix2}, ...
	 * @param prefix the name prefix
	 * @param setting the setting that asked for virtual threads, as {@code name=value}, for the
	 * error message
	 * @param instead the setting to choose instead on an older JVM, for the error message
	 * @return the factory
	 * @throws IllegalStateException naming the setting, the Java version needed and what to set
	 * instead, before Java 21
	 */
	public static ThreadFactory factory(String prefix, String setting, String instead) {
		int feature = Runtime.version().feature();
		if (!available()) {
			throw new IllegalStateException(setting + " needs Java 21 or later for virtual threads, but this JVM is "
					+ "Java " + feature + ": run on Java 21+ or set " + instead);
		}
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			Class<?> builderType = Class.forName("java.lang.Thread$Builder");
			builder = builderType.getMethod("name", String.class, long.class).invoke(builder, prefix, 1L);
			return (ThreadFactory) builderType.getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException ex) {
			Throwable cause = (ex instanceof InvocationTargetException) ? ex.getCause() : ex;
			throw new IllegalStateException("Virtual threads are not available on this JVM (Java " + feature + ")",
					cause);
		}
	}

}
