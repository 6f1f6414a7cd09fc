package io.chainfeed.api.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.chainfeed.api.support.problem.BadRequestException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class CursorTest {

    @Test
    void aHybridCursorCarriesTheStoriesItShowedOutOfOrder() {
        Cursor c = new Cursor(null, true, 0, "", "abcd1234", 6, List.of("read\nterm:hbm", "s1"));
        Cursor back = Cursor.decode(c.encode());
        assertThat(back).isEqualTo(c);
        assertThat(back.shown()).containsExactly("read\nterm:hbm", "s1");
    }

    @Test
    void aLexicalCursorCarriesNone() {
        Cursor back = Cursor.decode(new Cursor("pit", false, 1.5, "x", "h", 10).encode());
        assertThat(back.shown()).isEmpty();
        assertThat(back.offset()).isEqualTo(10);
    }

    @Test
    void tooManyOrMistypedShownStoriesAreRefused() {
        String many = "{\"s\":0,\"i\":\"\",\"h\":\"h\",\"o\":1,\"x\":["
                + String.join(",", Collections.nCopies(Cursor.MAX_SHOWN + 1, "\"a\"")) + "]}";
        assertThatThrownBy(() -> Cursor.decode(encode(many))).isInstanceOf(BadRequestException.class);
        assertThatThrownBy(() -> Cursor.decode(encode("{\"s\":0,\"i\":\"\",\"h\":\"h\",\"o\":1,\"x\":[1]}")))
            .isInstanceOf(BadRequestException.class);
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

}
