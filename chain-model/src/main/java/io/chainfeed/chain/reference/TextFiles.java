package io.chainfeed.chain.reference;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads the corpus's and the history's files as strict UTF-8 (RFC 3629: a malformed byte
 * sequence is an error, never replaced), from the classpath or a directory. Every I/O
 * problem is a {@link CorpusException} naming the file.
 */
public final class TextFiles {

    private TextFiles() {
    }

    /**
     * A file's text with the name used for it in errors.
     *
     * @param name the path as given (a classpath path or a file path), used in errors
     * @param fileName the last part of {@code name}
     * @param text the whole file, decoded
     */
    public record NamedText(String name, String fileName, String text) {
    }

    /**
     * @param name a path on the classpath, e.g. {@code history/signals.yaml}
     * @return its text, named by that path
     * @throws CorpusException if it is missing, unreadable or not UTF-8
     */
    public static NamedText bundled(String name) {
        try (InputStream in = TextFiles.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new CorpusException(name, null, "not found on the classpath");
            }
            return of(name, in);
        }
        catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * @param name the name to give the text in errors
     * @param in the bytes, read to the end (not closed)
     * @return the decoded text
     * @throws CorpusException if it cannot be read or is not UTF-8
     */
    public static NamedText of(String name, InputStream in) {
        try {
            return new NamedText(name, fileName(name), decode(name, in.readAllBytes()));
        }
        catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * @param path a file
     * @return its text, named by the path
     * @throws CorpusException if it is missing, unreadable or not UTF-8
     */
    public static NamedText read(Path path) {
        String name = path.toString();
        try {
            return new NamedText(name, path.getFileName().toString(), decode(name, Files.readAllBytes(path)));
        }
        catch (NoSuchFileException e) {
            throw new CorpusException(name, null, "file not found", e);
        }
        catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static String fileName(String name) {
        return name.substring(name.lastIndexOf('/') + 1);
    }

    private static String decode(String name, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        }
        catch (CharacterCodingException e) {
            throw new CorpusException(name, null, "is not valid UTF-8", e);
        }
    }

}
