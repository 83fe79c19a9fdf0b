package io.netpulse.testbed.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Runs short administrative commands ({@code ip …}) in the root namespace, without a shell. */
final class IpTool {
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private IpTool() {
    }

    /** The {@code ip} binary: PATH first, then the sbin directories that a non-login PATH often lacks. */
    static Optional<Path> ipBinary() {
        List<Path> candidates = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isBlank()) {
                    candidates.add(Path.of(dir, "ip"));
                }
            }
        }
        candidates.add(Path.of("/usr/sbin/ip"));
        candidates.add(Path.of("/sbin/ip"));
        candidates.add(Path.of("/usr/bin/ip"));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    static String ip(String... args) {
        Path ip = ipBinary().orElseThrow(() -> new HostNetworkException(
                "the 'ip' command (iproute2) is not installed: install iproute2"));
        List<String> command = new ArrayList<>();
        command.add(ip.toString());
        command.addAll(List.of(args));
        return run(command, TIMEOUT);
    }

    /** Runs to completion; stdout on exit 0, otherwise an exception carrying the command and its stderr. */
    static String run(List<String> command, Duration timeout) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("netpulse-cmd", ".out");
            err = Files.createTempFile("netpulse-cmd", ".err");
            Process p = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                ProcessTree.stop(List.of(p.toHandle()), Duration.ofSeconds(1));
                throw new HostNetworkException("'" + String.join(" ", command) + "' timed out after "
                        + timeout.toSeconds() + " s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new HostNetworkException("'" + String.join(" ", command) + "' exited " + p.exitValue()
                        + ": " + oneLine(Files.readString(err, StandardCharsets.UTF_8)));
            }
            return stdout;
        } catch (IOException e) {
            throw new HostNetworkException("cannot run '" + String.join(" ", command) + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostNetworkException("interrupted while running '" + String.join(" ", command) + "'", e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    static String oneLine(String text) {
        String flat = text.strip().replaceAll("\\s*\\R\\s*", " | ");
        return flat.length() > 600 ? flat.substring(0, 600) + " …" : flat;
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a leftover temp file is harmless
            }
        }
    }
}
