package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a context's sessions wait across a restart ({@code server.servlet.session.persistent}):
 * written when the deployment stops, read when the next one starts, then deleted. Each session
 * keeps its id, times and timeout; each attribute is serialized on its own, so that one that is
 * not serializable is left out with a warning and the others are kept. Classes are resolved
 * with the context's class loader. The file is the application's own, in the directory it
 * chose: it is trusted as Tomcat trusts its {@code SESSIONS.ser}.
 */
final class SessionFile {

	static final String NAME = "SESSIONS.ser";

	private static final int VERSION = 1;

	private final Path file;

	private final DeploymentContext context;

	SessionFile(Path directory, DeploymentContext context) {
		this.file = directory.resolve(NAME);
		this.context = context;
	}

	/** One session as stored. */
	record Stored(String id, long creationTime, long lastAccessedTime, int maxInactiveInterval,
			Map<String, Object> attributes) {
	}

	/**
	 * Writes the sessions, replacing any earlier file at once.
	 * @param sessions the sessions, their attributes already told they passivate
	 * @throws IOException if the file cannot be written
	 */
	void write(List<Stored> sessions) throws IOException {
		Files.createDirectories(this.file.getParent());
		Path partial = this.file.resolveSibling(NAME + ".partial");
		try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(partial))) {
			out.writeInt(VERSION);
			out.writeInt(sessions.size());
			for (Stored session : sessions) {
				out.writeUTF(session.id());
				out.writeLong(session.creationTime());
				out.writeLong(session.lastAccessedTime());
				out.writeInt(session.maxInactiveInterval());
				List<String> names = new ArrayList<>();
				List<byte[]> values = new ArrayList<>();
				session.attributes().forEach((name, value) -> {
					byte[] bytes = serialize(session.id(), name, value);
					if (bytes != null) {
						names.add(name);
						values.add(bytes);
					}
				});
				out.writeInt(names.size());
				for (int i = 0; i < names.size(); i++) {
					out.writeUTF(names.get(i));
					out.writeInt(values.get(i).length);
					out.write(values.get(i));
				}
			}
		}
		Files.move(partial, this.file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private byte[] serialize(String id, String name, Object value) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(value);
		}
		catch (IOException ex) {
			this.context.log("Session attribute '" + name + "' of session " + id + " is not kept across the restart: "
					+ "it cannot be serialized (" + ex + ")");
			return null;
		}
		return bytes.toByteArray();
	}

	/**
	 * Reads the sessions the last deployment left, and deletes the file.
	 * @return the sessions, in the order written; empty when there is no file
	 */
	List<Stored> read() {
		if (!Files.isRegularFile(this.file)) {
			return List.of();
		}
		List<Stored> sessions = new ArrayList<>();
		try (DataInputStream in = new DataInputStream(Files.newInputStream(this.file))) {
			if (in.readInt() != VERSION) {
				this.context.log("Sessions in " + this.file + " were written by another version: not restored");
				return List.of();
			}
			int count = in.readInt();
			for (int s = 0; s < count; s++) {
				String id = in.readUTF();
				long creation = in.readLong();
				long lastAccess = in.readLong();
				int maxInactive = in.readInt();
				int attributes = in.readInt();
				Map<String, Object> values = new LinkedHashMap<>();
				for (int a = 0; a < attributes; a++) {
					String name = in.readUTF();
					byte[] bytes = in.readNBytes(in.readInt());
					Object value = deserialize(id, name, bytes);
					if (value != null) {
						values.put(name, value);
					}
				}
				sessions.add(new Stored(id, creation, lastAccess, maxInactive, values));
			}
		}
		catch (IOException ex) {
			this.context.log("Sessions in " + this.file + " could not be read, and are not restored: " + ex);
			return List.of();
		}
		finally {
			try {
				Files.deleteIfExists(this.file);
			}
			catch (IOException ex) {
				this.context.log("Could not delete " + this.file + ": " + ex);
			}
		}
		return sessions;
	}

	private Object deserialize(String id, String name, byte[] bytes) {
		ClassLoader loader = this.context.getClassLoader();
		try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
			return in.readObject();
		}
		catch (IOException | ClassNotFoundException ex) {
			this.context.log("Session attribute '" + name + "' of session " + id + " is not restored: " + ex);
			return null;
		}
	}

	/** Resolves the classes of a stored attribute with the context's class loader. */
	private static final class LoaderObjectInputStream extends ObjectInputStream {

		private final ClassLoader loader;

		LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
			super(in);
			this.loader = loader;
		}

		@Override
		protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
			try {
				return Class.forName(description.getName(), false, this.loader);
			}
			catch (ClassNotFoundException ex) {
				return super.resolveClass(description);
			}
		}

	}

}
