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
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.http.Part;

/**
 * One part of a {@code multipart/form-data} request: its headers and its content, held in
 * memory up to the servlet's file-size threshold and in a temporary file beyond it. Written
 * while the body is read ({@link #write(byte[], int, int)}); read-only afterwards.
 */
final class UploadPart implements Part {

	private final Map<String, List<String>> headers;

	private final String name;

	private final String fileName;

	private final Path location;

	private final long threshold;

	private final long maxSize;

	private byte[] memory = new byte[0];

	private int memoryCount;

	private Path file;

	private OutputStream fileOut;

	private long size;

	private boolean movedAway;

	UploadPart(Map<String, List<String>> headers, String name, String fileName, Path location, long threshold,
			long maxSize) {
		this.headers = headers;
		this.name = name;
		this.fileName = fileName;
		this.location = location;
		this.threshold = threshold;
		this.maxSize = maxSize;
	}

	/** Appends content; moves it to a temporary file once it passes the threshold. */
	void write(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return;
		}
		this.size += length;
		if (this.maxSize >= 0 && this.size > this.maxSize) {
			throw new MultipartLimitException("The part '" + this.name + "' exceeds the maximum file size of "
					+ this.maxSize + " bytes");
		}
		if (this.fileOut == null && this.size > this.threshold) {
			this.file = Files.createTempFile(Files.createDirectories(this.location), "upload-", ".part");
			this.fileOut = Files.newOutputStream(this.file);
			this.fileOut.write(this.memory, 0, this.memoryCount);
			this.memory = null;
		}
		if (this.fileOut != null) {
			this.fileOut.write(bytes, offset, length);
			return;
		}
		if (this.memoryCount + length > this.memory.length) {
			byte[] grown = new byte[Math.max(this.memoryCount + length, Math.min(this.memory.length * 2 + 256,
					(int) Math.min(this.threshold, Integer.MAX_VALUE - 8)))];
			System.arraycopy(this.memory, 0, grown, 0, this.memoryCount);
			this.memory = grown;
		}
		System.arraycopy(bytes, offset, this.memory, this.memoryCount, length);
		this.memoryCount += length;
	}

	/** Ends the content. */
	void close() throws IOException {
		if (this.fileOut != null) {
			this.fileOut.close();
			this.fileOut = null;
		}
	}

	boolean isField() {
		return this.fileName == null;
	}

	boolean inMemory() {
		return this.file == null;
	}

	@Override
	public InputStream getInputStream() throws IOException {
		if (this.file != null) {
			return Files.newInputStream(this.file);
		}
		return new ByteArrayInputStream(this.memory, 0, this.memoryCount);
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
		Path target = this.location.resolve(fileName);
		Files.createDirectories(target.toAbsolutePath().getParent());
		if (this.file != null) {
			Files.move(this.file, target, StandardCopyOption.REPLACE_EXISTING);
			this.file = target;
			this.memory = null;
			// moved where the application wants it: no longer a temporary file
			this.movedAway = true;
			return;
		}
		Files.write(target, Arrays.copyOf(this.memory, this.memoryCount));
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
		this.memory = new byte[0];
		this.memoryCount = 0;
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
