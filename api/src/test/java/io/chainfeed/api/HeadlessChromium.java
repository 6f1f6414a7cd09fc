package io.chainfeed.api;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's {@code chromium} and {@code chromium-driver} for the browser ITs: where they
 * are, the skip (or, with {@code CI=true}, the failure) when they are missing, and a
 * headless driver with its own profile that keeps the browser console log.
 *
 * @param chromium the browser executable
 * @param chromedriver the driver executable
 */
record HeadlessChromium(Path chromium, Path chromedriver) {
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    /**
     * @param missing the start of the message when either is missing, e.g.
     * {@code WebPagesIT needs ...}
     * @return both executables
     * @throws org.opentest4j.TestAbortedException when either is missing and {@code CI}
     * is not {@code true}
     */
    static HeadlessChromium find(String missing) {
        Path chromium = firstExecutable("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
        Path chromedriver = firstExecutable("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
        if (chromium == null || chromedriver == null) {
            String msg = missing + "; found chromium=" + chromium + ", chromedriver=" + chromedriver;
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(msg);
            }
            Assumptions.abort(msg);
        }
        return new HeadlessChromium(chromium, chromedriver);
    }

    /**
     * @param profilePrefix prefix of the temporary profile directory
     * @param windowSize {@code width,height} in CSS pixels
     * @return a started driver (30 s page-load timeout); the caller quits it
     */
    ChromeDriver start(String profilePrefix, String windowSize) throws Exception {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        Path profile = Files.createTempDirectory(profilePrefix);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=" + windowSize, "--lang=en-US");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    /**
     * @param driver a driver {@link #start} made (it keeps the browser console log)
     * @return the console entries since the last call that a Content-Security-Policy
     * violation or a script error leaves
     */
    static List<String> consoleProblems(WebDriver driver) {
        List<String> out = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
            String m = e.getMessage();
            if (m.contains("Content Security Policy") || m.contains("Refused") || m.contains("Uncaught")) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Saves what the driver's window shows as {@code target/screenshots/<name>.png}, for
     * a person to look at.
     */
    static void screenshot(WebDriver driver, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    private static Path firstExecutable(String... paths) {
        for (String p : paths) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        return null;
    }
}
