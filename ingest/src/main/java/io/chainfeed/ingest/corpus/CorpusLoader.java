package io.chainfeed.ingest.corpus;

import io.chainfeed.chain.reference.ChainReference;
import io.chainfeed.chain.reference.CorpusException;
import io.chainfeed.chain.reference.TextFiles;
import io.chainfeed.chain.reference.TextFiles.NamedText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
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

    static final String TERMS_DIR = "terms";
    static final String TERM_SUFFIX = ".md";

    private CorpusLoader() {
    }

    /** @see Corpus#loadBundled() */
    static Corpus loadBundled() {
        PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(
                Corpus.class.getClassLoader());
        String base = Corpus.BUNDLED_LOCATION + "/";
        ChainReference reference = ChainReference.loadBundled();
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
        return CorpusParser.parse(reference, termFiles);
    }

    /** @see Corpus#load(Path) */
    static Corpus load(Path dir) {
        ChainReference reference = ChainReference.load(dir);
        Path termsDir = dir.resolve(TERMS_DIR);
        if (!Files.isDirectory(termsDir)) {
            throw new CorpusException(termsDir.toString(), null, "directory not found");
        }
        List<NamedText> termFiles;
        try (Stream<Path> files = Files.list(termsDir)) {
            termFiles = files.filter(p -> p.getFileName().toString().endsWith(TERM_SUFFIX) && Files.isRegularFile(p))
                .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                .map(TextFiles::read)
                .toList();
        }
        catch (IOException e) {
            throw new CorpusException(termsDir.toString(), null, "cannot list the term files: " + e.getMessage(), e);
        }
        return CorpusParser.parse(reference, termFiles);
    }

    private static NamedText read(Resource resource, String name) {
        if (!resource.exists()) {
            throw new CorpusException(name, null, "not found on the classpath");
        }
        try (InputStream in = resource.getInputStream()) {
            return TextFiles.of(name, in);
        }
        catch (IOException e) {
            throw new CorpusException(name, null, "cannot be read: " + e.getMessage(), e);
        }
    }

}
