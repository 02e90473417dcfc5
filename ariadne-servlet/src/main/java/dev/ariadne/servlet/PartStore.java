package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Where the parts of one multipart request keep their content. The part being read collects in
 * one buffer of the request; once complete, a part of at most the servlet's file-size threshold
 * keeps a copy in memory, and a part past the threshold but of at most {@link #SMALL_PART}
 * bytes goes to the request's spool file, after the parts before it. A larger part goes to a
 * temporary file of its own as soon as it passes that size. A body of many small parts so costs
 * the file system one file, not one per part: creating and deleting a file per part is what
 * made a body of ten thousand parts take seconds of the kernel's time.
 *
 * <p>Memory it holds is reserved in the server's buffer budget before it grows. Written by the
 * thread that reads the parts; the spool is read afterwards (positional reads, from any thread)
 * until {@link #delete()}, when the request ends.
 */
final class PartStore {

	/** The largest part kept in the request's spool file rather than a file of its own. */
	static final int SMALL_PART = 64 * 1024;

	private static final String PREFIX = "upload-";

	private static final String SUFFIX = ".part";

	private final Path location;

	private final RequestMemory memory;

	private boolean located;

	private byte[] buffer = new byte[0];

	private int buffered;

	private Path spool;

	private FileChannel spoolChannel;

	private long spoolSize;

	/**
	 * Creates the store of one request.
	 * @param location the directory of the temporary files, created on first use
	 * @param memory where memory is reserved
	 */
	PartStore(Path location, RequestMemory memory) {
		this.location = location;
		this.memory = memory;
	}

	Path location() {
		return this.location;
	}

	/** Adds content of the part being read to the buffer, reserving what the buffer grows by. */
	void buffer(byte[] bytes, int offset, int length) throws IOException {
		if (this.buffered + length > this.buffer.length) {
			long grown = Math.min(Math.max((long) this.buffered + length, this.buffer.length * 2L + 256),
					Integer.MAX_VALUE - 8);
			this.memory.reserve(grown - this.buffer.length);
			this.buffer = Arrays.copyOf(this.buffer, (int) grown);
		}
		System.arraycopy(bytes, offset, this.buffer, this.buffered, length);
		this.buffered += length;
	}

	/** Writes the buffered content to a part's own file and empties the buffer. */
	void writeBuffered(OutputStream out) throws IOException {
		out.write(this.buffer, 0, this.buffered);
		this.buffered = 0;
	}

	/** Takes the buffered content, for a part kept in memory, and empties the buffer. */
	byte[] takeBuffered() throws IOException {
		this.memory.reserve(this.buffered);
		byte[] content = Arrays.copyOf(this.buffer, this.buffered);
		this.buffered = 0;
		return content;
	}

	/**
	 * Appends the buffered content to the spool file and empties the buffer.
	 * @return where the content starts in the spool
	 */
	long spoolBuffered() throws IOException {
		if (this.spoolChannel == null) {
			this.spool = newFile();
			this.spoolChannel = FileChannel.open(this.spool, StandardOpenOption.READ, StandardOpenOption.WRITE);
		}
		long start = this.spoolSize;
		ByteBuffer content = ByteBuffer.wrap(this.buffer, 0, this.buffered);
		while (content.hasRemaining()) {
			this.spoolSize += this.spoolChannel.write(content, this.spoolSize);
		}
		this.buffered = 0;
		return start;
	}

	/** Creates a temporary file for a part, or for the spool. */
	Path newFile() throws IOException {
		if (!this.located) {
			Files.createDirectories(this.location);
			this.located = true;
		}
		return Files.createTempFile(this.location, PREFIX, SUFFIX);
	}

	/**
	 * Opens content in the spool file.
	 * @param start where it starts
	 * @param length how many bytes it has
	 * @return a stream of the content
	 */
	InputStream openSpooled(long start, long length) throws IOException {
		FileChannel channel = this.spoolChannel;
		if (channel == null) {
			throw new IOException("The parts of the request were deleted when it ended");
		}
		return new InputStream() {

			private long position = start;

			private final long end = start + length;

			@Override
			public int read() throws IOException {
				byte[] one = new byte[1];
				return (read(one, 0, 1) < 0) ? -1 : one[0] & 0xFF;
			}

			@Override
			public int read(byte[] bytes, int offset, int count) throws IOException {
				if (this.position >= this.end) {
					return -1;
				}
				if (count == 0) {
					return 0;
				}
				int n = channel.read(ByteBuffer.wrap(bytes, offset, (int) Math.min(count, this.end - this.position)),
						this.position);
				if (n < 0) {
					return -1;
				}
				this.position += n;
				return n;
			}

		};
	}

	/**
	 * Copies content in the spool file to a file of the application's.
	 * @param start where it starts
	 * @param length how many bytes it has
	 * @param target the file, replaced if it exists
	 */
	void copySpooled(long start, long length, Path target) throws IOException {
		FileChannel channel = this.spoolChannel;
		if (channel == null) {
			throw new IOException("The parts of the request were deleted when it ended");
		}
		try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.TRUNCATE_EXISTING)) {
			long copied = 0;
			while (copied < length) {
				long n = channel.transferTo(start + copied, length - copied, out);
				if (n <= 0) {
					throw new IOException("The spool file of the request's parts ended early");
				}
				copied += n;
			}
		}
	}

	/** Deletes the spool file; a part's own file is deleted by the part. */
	void delete() throws IOException {
		this.buffer = new byte[0];
		this.buffered = 0;
		FileChannel channel = this.spoolChannel;
		if (channel == null) {
			return;
		}
		this.spoolChannel = null;
		try {
			channel.close();
		}
		finally {
			Files.deleteIfExists(this.spool);
		}
	}

}
