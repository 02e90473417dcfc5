package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.Part;

/**
 * One part of a {@code multipart/form-data} request: its headers and its content, held in
 * memory up to the servlet's file-size threshold, beyond it in the request's spool file while
 * small and in a temporary file of its own when larger ({@link PartStore}). Written while the
 * body is read ({@link #write(byte[], int, int)}, then {@link #close()}); read-only afterwards.
 */
final class UploadPart implements Part {

	private static final byte[] EMPTY = new byte[0];

	private final Map<String, List<String>> headers;

	private final String name;

	private final String fileName;

	private final PartStore store;

	private final long threshold;

	private final long maxSize;

	/** The content of a part kept in memory, once complete. */
	private byte[] memory = EMPTY;

	/** Where the content starts in the request's spool file, or -1. */
	private long spoolStart = -1;

	private Path file;

	private OutputStream fileOut;

	private long size;

	private boolean movedAway;

	UploadPart(Map<String, List<String>> headers, String name, String fileName, PartStore store, long threshold,
			long maxSize) {
		this.headers = headers;
		this.name = name;
		this.fileName = fileName;
		this.store = store;
		this.threshold = threshold;
		this.maxSize = maxSize;
	}

	/** Appends content; moves it to a file of its own once it is too large for the spool. */
	void write(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return;
		}
		this.size += length;
		if (this.maxSize >= 0 && this.size > this.maxSize) {
			throw new MultipartLimitException("The part '" + this.name + "' exceeds the maximum file size of "
					+ this.maxSize + " bytes");
		}
		if (this.fileOut == null && this.size > Math.max(this.threshold, PartStore.SMALL_PART)) {
			this.file = this.store.newFile();
			this.fileOut = Files.newOutputStream(this.file);
			this.store.writeBuffered(this.fileOut);
		}
		if (this.fileOut != null) {
			this.fileOut.write(bytes, offset, length);
			return;
		}
		this.store.buffer(bytes, offset, length);
	}

	/** Ends the content: keeps it in memory up to the threshold, else in the spool or its file. */
	void close() throws IOException {
		if (this.fileOut != null) {
			this.fileOut.close();
			this.fileOut = null;
		}
		else if (this.size > this.threshold) {
			this.spoolStart = this.store.spoolBuffered();
		}
		else if (this.size > 0) {
			this.memory = this.store.takeBuffered();
		}
	}

	boolean isField() {
		return this.fileName == null;
	}

	@Override
	public InputStream getInputStream() throws IOException {
		if (this.file != null) {
			return Files.newInputStream(this.file);
		}
		if (this.spoolStart >= 0) {
			return this.store.openSpooled(this.spoolStart, this.size);
		}
		return new ByteArrayInputStream(this.memory);
	}

	@Override
	public String getContentType() {
		return getHeader("Content-Type");
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getSubmittedFileName() {
		return this.fileName;
	}

	@Override
	public long getSize() {
		return this.size;
	}

	@Override
	public void write(String fileName) throws IOException {
		Path target = this.store.location().resolve(fileName);
		Files.createDirectories(target.toAbsolutePath().getParent());
		if (this.file != null) {
			Files.move(this.file, target, StandardCopyOption.REPLACE_EXISTING);
			this.file = target;
			// moved where the application wants it: no longer a temporary file
			this.movedAway = true;
			return;
		}
		if (this.spoolStart >= 0) {
			this.store.copySpooled(this.spoolStart, this.size, target);
			return;
		}
		Files.write(target, this.memory);
	}

	@Override
	public void delete() throws IOException {
		if (this.fileOut != null) {
			this.fileOut.close();
			this.fileOut = null;
		}
		if (this.file != null && !this.movedAway) {
			Files.deleteIfExists(this.file);
		}
		// content in the spool stays there until the request ends, unreadable through this part
		this.spoolStart = -1;
		this.memory = EMPTY;
	}

	@Override
	public String getHeader(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	@Override
	public Collection<String> getHeaders(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values != null) ? new ArrayList<>(values) : new ArrayList<>();
	}

	@Override
	public Collection<String> getHeaderNames() {
		return new ArrayList<>(this.headers.keySet());
	}

	/** The content as text, for a form field. */
	String text(Charset charset) throws IOException {
		try (InputStream in = getInputStream()) {
			return new String(in.readAllBytes(), charset);
		}
	}

	@Override
	public String toString() {
		return "Part[" + this.name + ((this.fileName != null) ? ", " + this.fileName : "") + ", " + this.size + "]";
	}

}
