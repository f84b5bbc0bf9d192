package dev.taikai.cli;

import dev.taikai.testkit.FakeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Hidden: runs the testkit's fake USI engine, so engine checks and tournaments can be tried against it. */
@Command(
        name = "fake-engine",
        hidden = true,
        description = "A fake USI engine with failure switches (--help lists them); see docs/engines.md.")
final class FakeEngineCommand implements Callable<Integer> {
    @Unmatched
    private List<String> switches = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        FakeEngine.main(switches.toArray(new String[0]));
        return 0;
    }
}
