package io.chainfeed.api.selector;

import io.chainfeed.api.selector.Selector.Field;
import java.util.List;

/**
 * The syntax tree of a {@link Selector}: {@code all}, one field test, or an AND, OR or
 * NOT of expressions. {@link SelectorParser} builds it in normal form (operands of AND/OR
 * flattened, sorted and de-duplicated, double negation removed); {@link #print} writes it
 * back as selector text. Immutable.
 */
sealed interface Expression {

    /** {@code all}: every read. */
    record All() implements Expression {
    }

    /**
     * One field test. {@code companyId} and {@code symbols} are set once a company test
     * is resolved ({@link Selector#resolveCompanies}): then {@code value} is the
     * company's canonical symbol and the test matches the company id or any of its
     * listings' display symbols.
     */
    record Test(Field field, String value, String companyId, List<String> symbols) implements Expression {
        Test(Field field, String value) {
            this(field, value, null, List.of());
        }
    }

    /** All of its parts. */
    record And(List<Expression> parts) implements Expression {
    }

    /** Any of its parts. */
    record Or(List<Expression> parts) implements Expression {
    }

    /** Not its part. */
    record Not(Expression part) implements Expression {
    }

    /**
     * @param n an expression
     * @param top whether it is the whole selector (an AND or OR inside another is put in
     * parentheses)
     * @return the expression as selector text: lower-case field names, upper-case
     * keywords
     */
    static String print(Expression n, boolean top) {
        if (n instanceof Test t) {
            return t.field().label() + ":" + t.value();
        }
        else if (n instanceof Not x) {
            return "NOT " + print(x.part(), false);
        }
        else if (n instanceof And a) {
            return group(a.parts(), " AND ", top);
        }
        else if (n instanceof Or o) {
            return group(o.parts(), " OR ", top);
        }
        return "all";
    }

    private static String group(List<Expression> parts, String op, boolean top) {
        String inner = String.join(op, parts.stream().map(p -> print(p, false)).toList());
        return top ? inner : "(" + inner + ")";
    }

}
