package dev.taikai.cli.web;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium, driven through Debian's chromedriver (nothing is downloaded: both paths are
 * given, so Selenium's driver manager never runs). Missing, the calling test is skipped with a message,
 * unless the build runs with {@code -DrequireBrowser=true} (as the test command does, having installed
 * them). With {@code offline}, every network request goes to a proxy that is not there, so a page that
 * needed the network would show it.
 */
public final class Browser implements AutoCloseable {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    public static Browser start(boolean offline) throws Exception {
        return start(offline, java.util.List.of());
    }

    /**
     * A browser that also trusts the servers holding {@code trusted} (a local cluster's certificates, of a
     * CA no browser knows): Chromium is told their public keys' SHA-256 hashes, and trusts nothing more.
     */
    public static Browser start(boolean offline, java.util.List<java.security.cert.X509Certificate> trusted)
            throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String message = "Chromium is not installed (apt-get install chromium chromium-driver)";
            if (Boolean.getBoolean("taikai.requireBrowser")) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        Path profile = Files.createTempDirectory("taikai-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1600",
                "--user-data-dir=" + profile);
        if (!trusted.isEmpty()) {
            java.util.List<String> hashes = new java.util.ArrayList<>();
            for (var certificate : trusted) {
                byte[] spki = java.security.MessageDigest.getInstance("SHA-256")
                        .digest(certificate.getPublicKey().getEncoded());
                hashes.add(java.util.Base64.getEncoder().encodeToString(spki));
            }
            options.addArguments("--ignore-certificate-errors-spki-list=" + String.join(",", hashes));
        }
        if (offline) {
            options.addArguments("--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>");
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return new Browser(driver, profile);
    }

    public ChromeDriver driver() {
        return driver;
    }

    /** Writes a screenshot to {@code file} and checks that it is not blank (more than a few colours). */
    public void screenshot(Path file) throws Exception {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(file.getParent());
        Files.write(file, png);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 7) {
            for (int x = 0; x < image.getWidth(); x += 7) {
                colours.add(image.getRGB(x, y));
            }
        }
        assertTrue(colours.size() > 20, file + " looks blank: " + colours.size() + " colours");
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (Exception e) {
            // a temporary profile: the system's cleaner takes what is left
        }
    }
}
