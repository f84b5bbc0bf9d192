package dev.taikai.cli;

import dev.taikai.engine.BuiltinEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Hidden: runs the built-in USI engine ({@code --level 1..4}) on standard input and output. */
@Command(name = "engine", hidden = true, description = "The built-in USI engine: --level 1|2|3|4.")
final class EngineCommand implements Callable<Integer> {
    @Unmatched
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        BuiltinEngine.main(args.toArray(new String[0]));
        return 0;
    }
}
