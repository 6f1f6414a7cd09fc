package io.chainfeed.api;

import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * The headless Chromium of a page IT, as a JUnit extension: before the class it looks for
 * chromium and chromedriver ({@link HeadlessChromium#find}: the class is skipped without
 * them, or fails when {@code CI=true}); the browser starts on the first {@link #driver()}
 * call and quits after the class. Pages are addressed on the api under test
 * ({@link #url}).
 */
final class BrowserSession implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    /** The longest a page may take to show what a step waits for. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String windowSize;

    private String testClass;

    private String base;

    private HeadlessChromium chromium;

    private WebDriver driver;

    /**
     * @param windowSize the browser window, {@code width,height} in CSS pixels
     */
    BrowserSession(String windowSize) {
        this.windowSize = windowSize;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        testClass = context.getRequiredTestClass().getSimpleName();
        chromium = HeadlessChromium.find(testClass + " needs Debian's chromium and chromium-driver (apt-get install -y "
                + "chromium chromium-driver)");
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        base = "http://127.0.0.1:"
                + SpringExtension.getApplicationContext(context).getEnvironment().getProperty("local.server.port");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }

    /**
     * @return the class's browser, started on the first call
     * @throws IllegalStateException if it does not start
     */
    WebDriver driver() {
        if (driver == null) {
            try {
                driver = chromium.start("chainfeed-chromium-" + testClass + "-", windowSize);
            }
            catch (Exception e) {
                throw new IllegalStateException("chromium did not start", e);
            }
        }
        return driver;
    }

    /**
     * @param path a path on the api under test, e.g. {@code /chain}
     * @return its absolute URL
     */
    String url(String path) {
        return base + path;
    }

    /**
     * @return a wait on the browser, up to 30 s
     */
    WebDriverWait waiting() {
        return new WebDriverWait(driver(), WAIT);
    }

}
