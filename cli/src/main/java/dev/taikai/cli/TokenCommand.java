package dev.taikai.cli;

import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Issues an access token: prints the token (once; it is stored nowhere) on standard output and the line
 * for the services' tokens file, which holds only its hash, on standard error.
 */
@Command(
        name = "token",
        mixinStandardHelpOptions = true,
        description = {
            "Issues an access token for the services (docs/access.md).",
            "Prints the token on standard output (give it to its holder; it is not stored anywhere) and,",
            "on standard error, the line to add to the services' tokens file (taikai.auth.tokens-file),",
            "which holds only the token's SHA-256 hash. Revoke a token by deleting its line."
        })
final class TokenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--role",
            required = true,
            description = "admin (create and cancel tournaments), referee, worker, or viewer (read only)")
    private String role;

    @Option(names = "--name", required = true, description = "who holds the token, for logs and messages")
    private String name;

    @Override
    public Integer call() {
        Role parsed = Role.byId(role)
                .orElseThrow(() -> new ParameterException(
                        spec.commandLine(), "--role: '" + role + "' is not admin, referee, worker or viewer"));
        String token = Tokens.newToken();
        String line;
        try {
            line = Tokens.line(token, parsed, name);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--name: " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        out.println(token);
        out.flush();
        err.println(line);
        err.flush();
        return 0;
    }
}
