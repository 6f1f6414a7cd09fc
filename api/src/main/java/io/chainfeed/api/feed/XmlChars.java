package io.chainfeed.api.feed;

/**
 * Text made safe for XML 1.0 character data. XML 1.0 (section 2.2, production
 * {@code Char}) allows only tab, line feed, carriage return, U+0020..U+D7FF,
 * U+E000..U+FFFD and U+10000..U+10FFFF; every other code point (C0 controls, U+FFFE,
 * U+FFFF) and every unpaired surrogate cannot be written at all, not even as a character
 * reference, so it is removed. Escaping of {@code &}, {@code <} and {@code >} is the XML
 * writer's job, not this class's.
 */
public final class XmlChars {

    private XmlChars() {
    }

    /**
     * @param text any text, or null
     * @return the text without the characters XML 1.0 forbids (the same instance when
     * there are none); null stays null
     */
    public static String clean(String text) {
        if (text == null) {
            return null;
        }
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (!allowed(cp, text, i)) {
                break;
            }
            i += Character.charCount(cp);
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        out.append(text, 0, i);
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            if (allowed(cp, text, i)) {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    private static boolean allowed(int cp, String text, int at) {
        if (cp == 0x9 || cp == 0xA || cp == 0xD) {
            return true;
        }
        if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF) {
            return false;
        }
        // codePointAt returns a lone surrogate as itself: a half of a pair that is not
        // there.
        return !Character.isSurrogate(text.charAt(at)) || Character.isSupplementaryCodePoint(cp);
    }

}
