package io.chainfeed.ingest.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Reads a corpus's files, from the classpath or a directory, as strict UTF-8, and hands
 * them to {@link CorpusParser}. Every I/O problem is a {@link CorpusException} naming the
 * file.
 */
final class CorpusLoader {

    static final String LAYERS_FILE = "layers.yaml";
    static final String COMPANIES_FILE = "companies.yaml";
    static final String TERMS_DIR = "terms";
    static final String TERM_SUFFIX = ".md";

    private CorpusLoader() {
    }

    /** A file's text with the name used for it in errors. */
    record NamedText(String name, String fileName, String text) {
    }

    /**
     * @param name a path on the classpath, e.g. {@code history/signals.yaml}
     * @return its text, named by that path
     * @throws CorpusException if it is missing, unreadable or not UTF-8
     */
    static NamedText readBundled(String name) {
        return read(
                new PathMatchingResourcePatternResolver(Corpus.class.getClassLoader()).getResource("classpath:" + name),
                name);
    }

    /** @see Corpus#loadBundled() */
    static Corpus loadBundled() {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(
                Corpus.class.getClassLoader());
        String base = Corpus.BUNDLED_LOCATION + "/";
        NamedText layers = read(resolver.getResource("classpath:" + base + LAYERS_FILE), base + LAYERS_FILE);
        NamedText companies = read(resolver.getResource("classpath:" + base + COMPANIES_FILE), base + COMPANIES_FILE);
        String pattern = "classpath:" + base + TERMS_DIR + "/*" + TERM_SUFFIX;
        Resource[] found;
        try {
            found = resolver.getResources(pattern);
        }
        catch (IOException e) {
            throw new CorpusException(base + TERMS_DIR, null, "cannot list the term files: " + e.getMessage(), e);
        }
        List<NamedText> termFiles = Arrays.stream(found)
            .filter(r -> r.getFilename() != null)
            .sorted(Comparator.comparing(Resource::getFilename))
            .map(r -> read(r, base + TERMS_DIR + "/" + r.getFilename()))
            .toList();
        return CorpusParser.parse(layers, companies, termFiles);
    }

    /** @see Corpus#load(Path) */
    static Corpus load(Path dir) {
        NamedText layers = read(dir.resolve(LAYERS_FILE));
        NamedText companies = read(dir.resolve(COMPANIES_FILE));
        Path termsDir = dir.resolve(TERMS_DIR);
        if (!Files.isDirectory(termsDir)) {
            throw new CorpusException(termsDir.toString(), null, "directory not found");
        }
        List<NamedText> termFiles;
        try (Stream<Path> files = Files.list(termsDir)) {
            termFiles = files.filter(p -> p.getFileName().toString().endsWith(TERM_SUFFIX) && Files.isRegularFile(p))
                .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                .map(CorpusLoader::read)
                .toList();
        }
        catch (IOException e) {
            throw new CorpusException(termsDir.toString(), null, "cannot list the term files: " + e.getMessage(), e);
        }
        return CorpusParser.parse(layers, companies, termFiles);
    }

    private static NamedText read(Resource resource, String name) {
        if (!resource.exists()) {
            throw new CorpusException(name, null, "not found on the classpath");
        }
        try (InputStream in = resource.getInputStream()) {
            return new NamedText(name, fileName(name), decode(name, in.readAllBytes()));
        }
        catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static NamedText read(Path path) {
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
