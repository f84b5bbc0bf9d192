package dev.taikai.cli;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.enginehost.check.CheckReport;
import dev.taikai.enginehost.check.EngineCheck;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "engine-check",
        mixinStandardHelpOptions = true,
        description = {
            "Checks that an engine speaks its protocol correctly for a variant. USI: handshake and variant"
                    + " selection, every go form, a game's moves, stop and isready during a search, ponder if offered,"
                    + " gameover, quit; detects swapped clocks by timing. XBoard (CECP): features, variant and setup,"
                    + " setboard, a game's moves, every clock form, ? and ping during a search, result, quit. Measures the handshake time and the"
                    + " per-move overhead.",
            "Exit code 0 when every required check passes, 1 when one fails, 2 for bad usage."
        })
final class EngineCheckCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(
            names = "--engine",
            required = true,
            paramLabel = "ID|COMMAND",
            description =
                    "a catalog id (built in: fairy-stockfish, crazywa, sjaakii, taikai-1 to taikai-4) or a command line, e.g."
                            + " \"/usr/games/fairy-stockfish\"")
    private String engine;

    @Option(names = "--variant", required = true, paramLabel = "VARIANT", description = "minishogi or kyotoshogi")
    private String variantName;

    @Option(names = "--catalog", paramLabel = "FILE", description = "an engine catalog (YAML, see docs/engines.md)")
    private Path catalogFile;

    @Option(
            names = "--option",
            paramLabel = "NAME=VALUE",
            description = "an option to set (repeatable; added to the catalog entry's): USI setoption, XBoard option")
    private List<String> options = new ArrayList<>();

    @Option(
            names = "--quirk",
            paramLabel = "QUIRK",
            description = "a known quirk to compensate for (repeatable): swapped-clocks")
    private List<String> quirks = new ArrayList<>();

    @Override
    public Integer call() {
        Variant variant = GameArguments.variant(variantName);
        EngineSpec engineSpec = engineSpec();
        PrintWriter out = spec.commandLine().getOut();
        out.println("Engine check of " + engineSpec.id() + " (" + String.join(" ", engineSpec.command()) + "), "
                + variant.name());
        out.flush();
        CheckReport report = EngineCheck.run(engineSpec, variant, Timeouts.DEFAULT, result -> {
            out.println(CheckReport.line(result));
            out.flush();
        });
        for (String note : report.notes()) {
            out.println("      " + note);
        }
        String rendered = report.render();
        out.print(rendered.substring(rendered.lastIndexOf("Result:")));
        out.flush();
        return report.passed() ? 0 : ExitCodes.FAILURE;
    }

    private EngineSpec engineSpec() {
        try {
            Catalog catalog = dev.taikai.enginehost.catalog.BuiltinCatalog.get();
            if (catalogFile != null) {
                catalog = catalog.with(Catalog.read(catalogFile));
            }
            EngineSpec resolved = catalog.resolve(engine);
            Map<String, String> allOptions = new LinkedHashMap<>(resolved.options());
            for (String option : options) {
                int equals = option.indexOf('=');
                if (equals <= 0) {
                    throw new ExitCodes.UsageException("--option needs NAME=VALUE, not '" + option + "'");
                }
                allOptions.put(option.substring(0, equals), option.substring(equals + 1));
            }
            Set<Quirk> allQuirks =
                    resolved.quirks().isEmpty() ? EnumSet.noneOf(Quirk.class) : EnumSet.copyOf(resolved.quirks());
            if (!quirks.isEmpty() && resolved.protocol() == dev.taikai.enginehost.catalog.Protocol.XBOARD) {
                // as -engine and catalog entries refuse it: a quirk would be accepted and ignored
                throw new ExitCodes.UsageException("--quirk is a USI setting; engine '" + resolved.id()
                        + "' speaks XBoard, which names its variant and pieces itself");
            }
            for (String quirk : quirks) {
                allQuirks.add(Quirk.byId(quirk)
                        .orElseThrow(() ->
                                new ExitCodes.UsageException("unknown quirk '" + quirk + "'; known: swapped-clocks")));
            }
            return resolved.withOptions(allOptions).withQuirks(allQuirks);
        } catch (ConfigException | IllegalArgumentException e) {
            // an option the entry would refuse (a newline, 'value' in a name, too long) is refused here alike
            throw new ExitCodes.UsageException(e.getMessage());
        }
    }
}
