package io.chainfeed.chain.reference;

/**
 * The bundled corpus (or a corpus directory on disk) is unreadable or inconsistent. The
 * message always names the file and, when the problem is in one field, the field, e.g.
 * {@code corpus/terms/rdma.md: field 'definition': missing}.
 */
public class CorpusException extends RuntimeException {

    /**
     * @param file the file at fault, as given to the loader (a classpath location or a
     * path)
     * @param field the field at fault, as a path such as
     * {@code companies[3].listings[0].mic}; null when the whole file is at fault
     * @param problem what is wrong, in a few words
     */
    public CorpusException(String file, String field, String problem) {
        this(file, field, problem, null);
    }

    /**
     * @param file the file at fault
     * @param field the field at fault, or null
     * @param problem what is wrong
     * @param cause the underlying error (I/O, YAML syntax), or null
     */
    public CorpusException(String file, String field, String problem, Throwable cause) {
        super(format(file, field, problem), cause);
    }

    private static String format(String file, String field, String problem) {
        return field == null ? file + ": " + problem : file + ": field '" + field + "': " + problem;
    }

}
