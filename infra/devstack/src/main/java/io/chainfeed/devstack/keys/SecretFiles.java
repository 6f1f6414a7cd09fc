package io.chainfeed.devstack.keys;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes the secrets a run dir keeps (the admin key, the webhook master key, the demo
 * page's partner key) to files only their owner can read and write.
 */
public final class SecretFiles {

    private SecretFiles() {
    }

    /**
     * Replaces {@code file} with one holding {@code content}, created with mode
     * {@code rw-------} where the file system has POSIX permissions (created before
     * anything is written, so the secret is never readable by others, not even briefly);
     * elsewhere the directory's own permissions apply.
     * @param file the file to (re)write
     * @param content what it holds, written as UTF-8
     * @throws IOException when the file cannot be deleted, created or written
     */
    public static void writeOwnerOnly(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        Files.writeString(file, content);
    }

}
