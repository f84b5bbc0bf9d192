package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.OpeningSuite;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.stats.Sprt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tournament files and cutechess-style flags: every key read as documented, every error placed. */
class TournamentDefinitionTest {
    /**
     * An inline engine's and a catalog's relative workdir is the file's, as the file's other paths: it was
     * the current directory's, so the same file worked from its own folder only.
     */
    @Test
    void aRelativeWorkdirIsTakenFromTheFilesFolder(@TempDir Path dir) throws Exception {
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Files.writeString(
                sub.resolve("engines.yaml"),
                "engines:\n  - {id: cat, command: ./engine, workdir: ../catalog-engine}\n");
        Files.writeString(
                sub.resolve("t.yaml"),
                "variant: minishogi\ncatalog: engines.yaml\nengines:\n  - cat\n"
                        + "  - {id: inline, command: ./engine, workdir: ../inline-engine}\n");
        RunPlan plan = TournamentFile.read(sub.resolve("t.yaml"));
        assertEquals(
                dir.toAbsolutePath().resolve("catalog-engine"),
                plan.catalog().engine("cat").orElseThrow().workingDirectory());
        assertEquals(
                dir.toAbsolutePath().resolve("inline-engine"),
                plan.catalog().engine("inline").orElseThrow().workingDirectory());
    }

    /** An engine of a built-in's command read otherwise (no quirks) was labelled the built-in one in tournament.txt. */
    @Test
    void theSettingsCallAnEngineBuiltInOnlyWhenItIsReadAsTheBuiltInOne() throws Exception {
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "name=mine",
                "cmd=fairy-stockfish",
                "-engine",
                "conf=fairy-stockfish",
                "name=known",
                "-engine",
                "conf=taikai-1",
                "name=taikai"));
        assertTrue(plan.fingerprint().contains("engine mine: fairy-stockfish\n"), plan.fingerprint());
        assertTrue(plan.fingerprint().contains("engine known: built-in fairy-stockfish\n"), plan.fingerprint());
        assertTrue(plan.fingerprint().contains("engine taikai: built-in taikai-1\n"), plan.fingerprint());
    }

    @Test
    void theDocumentedExampleReadsAsDocumented() throws Exception {
        RunPlan plan = TournamentFile.read(Path.of("../docs/tournament.example.yaml"));
        TournamentSpec spec = plan.spec();
        assertEquals("example", spec.name());
        assertEquals(Variant.MINISHOGI, spec.variant());
        assertEquals(Format.ROUND_ROBIN, spec.format());
        assertEquals(
                List.of(
                        new Entrant("taikai-4", "taikai-4", TimeControl.byoyomi(2000, 100)),
                        new Entrant("taikai-2-slow", "taikai-2", TimeControl.byoyomi(4000, 200)),
                        new Entrant("fsf-skill-3", "fsf-skill-3", TimeControl.byoyomi(2000, 100))),
                spec.entrants());
        assertEquals(
                Map.of("Skill Level", "3"),
                plan.catalog().engine("fsf-skill-3").orElseThrow().options());
        assertEquals(100, spec.openings().size());
        assertTrue(spec.randomOrder());
        assertEquals(new Adjudication(300, 1500, 4, 10, 8, 60), spec.adjudication());
        assertEquals(42, spec.seed());
        assertEquals(1, spec.concurrency());
        assertNull(spec.sprt());
        assertTrue(plan.output().endsWith(Path.of("results", "example")));
    }

    @Test
    void theShippedOpeningSuitesAreLegalAndBalanced() {
        for (Variant variant : Variant.all()) {
            var openings = OpeningSuite.read(Path.of("../openings/" + variant.name() + ".txt"), variant);
            assertEquals(100, openings.size(), variant.name());
            assertTrue(openings.stream().allMatch(o -> o.moves().size() == 4), variant.name());
            assertEquals(
                    100,
                    openings.stream().map(o -> o.position().key()).distinct().count(),
                    "distinct positions");
        }
    }

    @Test
    void defaultsForAMinimalFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("m.yaml"), "variant: kyotoshogi\nengines: [taikai-1, taikai-2]\n");
        RunPlan plan = TournamentFile.read(dir.resolve("m.yaml"));
        TournamentSpec spec = plan.spec();
        assertEquals("m", spec.name());
        assertEquals(Format.MATCH, spec.format());
        assertEquals(1, spec.rounds());
        assertEquals(2, spec.gamesPerPairing());
        assertEquals(
                TimeControl.parse(RunPlan.DEFAULT_TIME_CONTROL),
                spec.entrants().get(0).timeControl());
        assertEquals(Adjudication.DEFAULT, spec.adjudication());
        assertEquals(RunPlan.defaultConcurrency(), spec.concurrency());
        assertEquals(Path.of("results"), plan.output().getParent(), "a new folder under results/");
        assertTrue(
                plan.output().getFileName().toString().matches("m-\\d{8}-\\d{6}"),
                "the name and the time: " + plan.output());
        assertTrue(spec.openings().isEmpty());
    }

    @Test
    void repeatedEngineArgumentsAllReachTheCommandLine() throws Exception {
        RunPlan flags = CutechessArguments.parse(List.of(
                "-variant minishogi -engine name=a cmd=/bin/engine arg=--think-ms arg=0 quirk=swapped-clocks -engine conf=taikai-1"
                        .split(" ")));
        List<String> withEach = List.of(
                "-variant minishogi -engine name=a cmd=/bin/engine arg=one -engine name=b cmd=/bin/engine -each arg=all"
                        .split(" "));
        RunPlan each = CutechessArguments.parse(withEach);
        assertEquals(
                List.of("/bin/engine", "--think-ms", "0"),
                flags.engineOf(flags.spec().entrants().get(0)).command());
        assertEquals(
                java.util.Set.of(dev.taikai.enginehost.catalog.Quirk.SWAPPED_CLOCKS),
                flags.engineOf(flags.spec().entrants().get(0)).quirks());
        assertEquals(
                List.of("/bin/engine", "all", "one"),
                each.engineOf(each.spec().entrants().get(0)).command(),
                "-each's arguments come first");
        assertEquals(
                List.of("/bin/engine", "all"),
                each.engineOf(each.spec().entrants().get(1)).command());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "variant: minishogi\\nengines: [taikai-1]\\nrounds: 2\\nround: 3 | t.yaml:4: unknown key 'round'",
                "engines: [taikai-1, taikai-2] | t.yaml:1: 'variant' is required",
                "variant: chess\\nengines: [taikai-1, taikai-2] | t.yaml:1: variant: unknown variant",
                "variant: minishogi\\nengines: [taikai-1] | t.yaml:2: engines: a tournament needs at least two engines",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - nobody | t.yaml:4: engines[1]: no engine 'nobody' in the catalog",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - taikai-1 | t.yaml:4: engines[1]: two engines are named 'taikai-1'",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - {engine: taikai-2, time-control: 3 byoyomi} | t.yaml:4: engines[1].time-control: time control '3 byoyomi'",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\ntime-control: fast | t.yaml:3: time-control: time control 'fast'",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - {engine: taikai-2, command: /bin/engine} | t.yaml:4: engines[1].command: 'command' belongs to a whole engine entry (id:, command:, ...), not to one that plays the catalog's engine (engine: taikai-2)",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - {name: mine, command: /bin/engine} | t.yaml:4: engines[1].name: a whole engine entry names its engine with 'id:'",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nrounds: 0 | t.yaml:3: rounds: 0 is out of range",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nformat: ladder | t.yaml:3: format: unknown format",
                "variant: minishogi\\nengines: [taikai-1, taikai-2, taikai-3]\\nformat: knockout\\nrounds: 3 | t.yaml:4: rounds: a knockout's rounds follow from its number of engines",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - {engine: taikai-2, from-round: 2} | t.yaml:4: engines[1]: engine 'taikai-2': only a league's engines play from or until a round",
                "variant: minishogi\\nformat: league\\nrounds: 2\\nengines:\\n  - taikai-1\\n  - taikai-2\\n  - {engine: taikai-3, from-round: 3} | t.yaml:7: engines[2]: engine 'taikai-3' would join in round 3 of a league of 2",
                "variant: minishogi\\nengines: [taikai-1, taikai-2, taikai-3]\\nseeds: 2 | t.yaml:3: seeds: a gauntlet's number of seeds (its first engines, which play all the others); this tournament's format is round-robin (format: gauntlet",
                "variant: minishogi\\nformat: knockout\\nengines: [taikai-1, taikai-2, taikai-3]\\nseeds: 1 | t.yaml:4: seeds: a gauntlet's number of seeds (its first engines, which play all the others); this tournament's format is knockout, whose bracket seeds every engine in the order given",
                "variant: minishogi\\nformat: league\\nrounds: 4\\nengines:\\n  - taikai-1\\n  - taikai-2\\n  - {engine: taikai-3, from-round: 3, until-round: 2} | t.yaml:7: engines[2]: an engine's rounds are from round 1 or later",
                "variant: minishogi\\nengines: [taikai-1, taikai-2, taikai-3]\\nsprt: {elo0: 0, elo1: 5} | t.yaml:3: sprt: SPRT needs a two-engine match",
                "variant: minishogi\\nformat: league\\ngames: 3\\nengines: [taikai-1, taikai-2] | t.yaml:3: games: a league plays 1 or 2 games per pairing",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nsprt: {elo0: 5, elo1: 0} | t.yaml:3: sprt: SPRT needs elo0 < elo1",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\ngames: 1\\nsprt: {elo0: 0, elo1: 5} | t.yaml:4: sprt: SPRT counts game pairs (an opening played with colours swapped): games per pairing must be even, not 1",
                "variant: minishogi\\nengines: [taikai-1, taikai-2, taikai-3]\\nrounds: 1000000\\ngames: 1000000 | t.yaml:3: rounds: the tournament would have up to 3000000000000 games; at most 1000000",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nconcurrency: 100000 | t.yaml:3: concurrency: 100000 is out of range (1 to 1024)",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nopenings: {file: missing.txt} | t.yaml:3: openings.file: cannot read opening suite",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nadjudication: {resign: {score: 500}} | t.yaml:3: adjudication.resign: 'moves' is required",
                "variant: minishogi\\ncatalog: nope.yaml\\nengines: [taikai-1, taikai-2] | t.yaml:2: catalog: cannot read engine catalog ",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nrestart: sometimes | t.yaml:3: restart: restart is 'on-failure' or 'always'",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nengine-logs: yes | t.yaml:3: engine-logs: expected true or false, not 'yes'",
                "variant: minishogi\\nengines:\\n  - taikai-1\\n  - {id: x} | t.yaml:4: engines[1]: an engine needs 'command'",
                "variant: minishogi\\nengines: [taikai-1, taikai-2]\\nleague: {half-life: 2} | t.yaml:3: league: tunes a league's pairing and ratings; this tournament's format is match",
                "variant: minishogi\\nformat: league\\nengines: [taikai-1, taikai-2]\\nleague: {half-life: -1} | t.yaml:4: league.half-life: half-life is 0 (no decay)",
                "variant: minishogi\\nformat: league\\nengines: [taikai-1, taikai-2]\\nleague: {rematch-memory: 101} | t.yaml:4: league.rematch-memory:",
                "variant: minishogi\\nformat: league\\nengines: [taikai-1, taikai-2]\\nleague: {decay: 2} | t.yaml:4: league: unknown key 'decay'",
            })
    void errorsNameFileLineAndField(String yaml, String message, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.yaml");
        Files.writeString(file, yaml.replace("\\n", "\n"));
        ConfigException e = assertThrows(ConfigException.class, () -> TournamentFile.read(file));
        assertTrue(e.getMessage().startsWith(file + message.substring("t.yaml".length())), e.getMessage());
    }

    @Test
    void aLeagueFileTunesItsPairingAndRatingsAndAResumeSeesTheTuning(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("l.yaml");
        Files.writeString(
                file,
                "variant: minishogi\nformat: league\nrounds: 3\nengines: [taikai-1, taikai-2, taikai-3]\n"
                        + "league: {rematch-penalty: 0.5, rematch-memory: 2, half-life: 6}\n");
        RunPlan plan = TournamentFile.read(file);
        assertEquals(new League.Settings(2, 0.5, 2, 6), plan.leagueSettings());
        assertEquals(plan.leagueSettings(), plan.newRun().league().orElseThrow().settings());
        assertTrue(plan.fingerprint().contains("league: rematch penalty 0.5, rematch memory 2 rounds, half-life 6.0"));
        Files.writeString(
                file, "variant: minishogi\nformat: league\nrounds: 3\nengines: [taikai-1, taikai-2, taikai-3]\n");
        RunPlan defaults = TournamentFile.read(file);
        assertEquals(new League.Settings(2, 4, 4, 0), defaults.leagueSettings(), "the defaults");
        assertNotEquals(plan.fingerprint(), defaults.fingerprint(), "a changed tuning is another tournament");
    }

    @Test
    void anEnginesOwnTimeControlReplacesTheEachOneWhole() throws Exception {
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "conf=taikai-1",
                "tc=1",
                "-engine",
                "conf=taikai-2",
                "-each",
                "st=0.1",
                "proto=usi"));
        assertEquals(TimeControl.parse("1"), plan.spec().entrants().get(0).timeControl());
        assertEquals(
                TimeControl.parse("movetime 0.1"), plan.spec().entrants().get(1).timeControl());
    }

    @Test
    void aTournamentFileThatCannotBeReadIsNamedOnce(@TempDir Path dir) {
        Path missing = dir.resolve("missing.yaml");
        assertEquals(
                "tournament file " + missing + " does not exist",
                assertThrows(ConfigException.class, () -> TournamentFile.read(missing))
                        .getMessage());
        assertEquals(
                "cannot read tournament file " + dir + ": it is a folder",
                assertThrows(ConfigException.class, () -> TournamentFile.read(dir))
                        .getMessage());
    }

    @Test
    void cutechessFlagsDescribeTheSameTournamentAsAFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("openings.txt"), "startpos moves 5d5c\nstartpos moves 4e4d\n");
        RunPlan flags = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-event",
                "same",
                "-engine",
                "conf=taikai-3",
                "name=three",
                "timemargin=40",
                "-engine",
                "conf=fairy-stockfish",
                "option.Skill Level=2",
                "-each",
                "tc=2",
                "byoyomi=0.1",
                "-rounds",
                "3",
                "-games",
                "2",
                "-repeat",
                "-recover",
                "-concurrency",
                "1",
                "-openings",
                "file=" + dir.resolve("openings.txt"),
                "order=random",
                "-srand",
                "9",
                "-sprt",
                "elo0=0",
                "elo1=5",
                "alpha=0.05",
                "beta=0.1",
                "-resign",
                "movecount=3",
                "score=900",
                "-draw",
                "movenumber=30",
                "movecount=6",
                "score=15",
                "-maxmoves",
                "120",
                "-timemargin",
                "25"));
        TournamentSpec spec = flags.spec();
        assertEquals(Format.MATCH, spec.format());
        assertEquals(
                List.of("three", "fairy-stockfish"),
                spec.entrants().stream().map(Entrant::name).toList());
        assertEquals(TimeControl.byoyomi(2000, 100), spec.entrants().get(1).timeControl());
        assertEquals(
                Map.of("Skill Level", "2"),
                flags.engineOf(spec.entrants().get(1)).options());
        assertEquals(new Adjudication(240, 900, 3, 15, 6, 60), spec.adjudication());
        assertEquals(new Sprt(0, 5, 0.05, 0.1), spec.sprt());
        assertEquals(OverrunMargin.of(25), spec.overrunMargin());
        assertEquals(OverrunMargin.of(40), spec.entrants().get(0).overrunMargin(), "timemargin= is that engine's");
        assertEquals(null, spec.entrants().get(1).overrunMargin(), "the other has the tournament's");
        assertEquals(9, spec.seed());
        assertTrue(spec.randomOrder());

        String engines = "engines:\n  - {engine: taikai-3, name: three, overrun-margin-ms: 40}\n"
                + "  - {id: fairy-stockfish, command: fairy-stockfish, options: {Skill Level: 2}, quirks: [swapped-clocks]}\n";
        Files.writeString(
                dir.resolve("same.yaml"),
                "name: same\nvariant: minishogi\nrounds: 3\ngames: 2\n"
                        + "time-control: 2 byoyomi 0.1\nconcurrency: 1\nopenings: {file: openings.txt, order: random}\nseed: 9\n"
                        + "sprt: {elo0: 0, elo1: 5, alpha: 0.05, beta: 0.1}\noverrun-margin-ms: 25\n"
                        + "adjudication: {move-limit: 240, resign: {score: 900, moves: 3}, draw: {score: 15, moves: 6, after: 60}}\n"
                        + engines);
        assertEquals(TournamentFile.read(dir.resolve("same.yaml")).fingerprint(), flags.fingerprint());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "-engine conf=taikai-1 -engine conf=taikai-2 | -variant is required",
                "-variant minishogi -engine conf=taikai-1 | a tournament needs at least two -engine flags",
                "-variant minishogi -engine conf=nobody -engine conf=taikai-2 | -engine conf=nobody: no such engine",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds many | -rounds needs a whole number",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -bogus 1 | unknown flag '-bogus'",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds 0 | -rounds is 1 to 1000000, not 0 (0 is a league's: rounds without end); this tournament's format is match",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -seeds 1 | -seeds: a gauntlet's number of seeds (its first engines, which play all the others); this tournament's format is match (format: gauntlet, -tournament gauntlet, or leave it out)",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -pgnout g.pgn | -pgnout is cutechess-cli's and not Taikai's: the records go to -out DIR: a KIF file a game",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -games 1 -repeat | -repeat with 1 game(s) a pairing: here the two games of an opening (colours swapped) are a pairing's, so -games must be even",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -noswap | -noswap is cutechess-cli's and not Taikai's: a pairing's two games swap colours; -games 1",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each tc=40/60 | tc=40/60: moves/time controls are not supported",
                "-variant minishogi -engine cmd=/bin/engine -engine cmd=/bin/engine | two engines are named 'engine'",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -sprt elo0=0 | -sprt needs elo1=",
                "-variant minishogi -engine conf=taikai-1 arg=x -engine conf=taikai-2 | takes only name, option.* and time settings, not 'arg=x'",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each inc=1 | -each: -engine conf=taikai-1 takes only name, option.* and time settings, not 'inc'",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each tc=9300000000 | time control '9300000000': '9300000000' seconds is more than a day",
                "-variant minishogi -engine conf=taikai-1 timemargin=-5 -engine conf=taikai-2 | timemargin: an overrun margin is 0 to 60000 ms, not -5",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -timemargin soon | -timemargin needs a whole number, not 'soon'",
                "-variant chess -engine conf=taikai-1 -engine conf=taikai-2 | unknown -variant 'chess'; the variants are minishogi, kyotoshogi",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each proto=uci | -each proto=uci: engines speak usi or xboard",
                "-variant minishogi -engine conf=taikai-1 proto=xboard -engine conf=taikai-2 | -engine conf=taikai-1 speaks usi, not proto=xboard",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each tc=1 st=0.1 | st=0.1 and tc=1 are two time controls; give one",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each tc=1 st=0.1 nodes=5 | are 3 time controls; give one",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -sprt elo0=0 elo1=5 model=bogus | -sprt model=bogus: the SPRT here is in normalized Elo",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -openings file=x.pgn format=pgn | -openings format=pgn: an opening suite is SFEN lines",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -resign movecount=3 score=600 twosided=false | -resign twosided=false: resign adjudication is always two-sided",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each nodes | -each setting 'nodes' is not key=value",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -restart sometimes | -restart is on or off",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -repeat 4 | -repeat 4: here each opening is played by one game pair",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -concurrency 100000 | -concurrency is 1 to 1024, not 100000",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds 99999999999 | -rounds is 0 to 1000000, not 99999999999",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds 2147483647 | -rounds is 0 to 1000000, not 2147483647",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -games 3000000 | -games is 1 to 1000000, not 3000000",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds 1000000 -games 1000000 | the tournament would have up to 1000000000000 games; at most 1000000",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -openings file=x.txt plies=-1 | -openings plies is 0 to 10000, not -1",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -rounds -games 2 | -rounds needs a value",
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -games 1 -sprt elo0=0 elo1=5 | SPRT counts game pairs (an opening played with colours swapped): games per pairing must be even, not 1",
            })
    void badFlagsSayWhatIsWrong(String commandLine, String message) {
        ConfigException e =
                assertThrows(ConfigException.class, () -> CutechessArguments.parse(List.of(commandLine.split(" "))));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void flagsAfterAFileReplaceWhatTheFileSays(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "variant: minishogi\nrounds: 1\nconcurrency: 1\ntime-control: movetime 0.1\nengines:\n"
                        + "  - taikai-1\n  - {engine: taikai-2, time-control: 5 byoyomi 0.5}\n");
        RunPlan file = TournamentFile.read(dir.resolve("t.yaml"));
        RunPlan plan = CutechessArguments.over(
                file,
                List.of("-rounds 3 -concurrency 2 -srand 7 -out elsewhere -restart on -maxmoves 40 -each st=0.2"
                        .concat(" timemargin=50 option.Depth=2")
                        .split(" ")));
        TournamentSpec spec = plan.spec();
        assertEquals(3, spec.rounds());
        assertEquals(2, spec.concurrency());
        assertEquals(7, spec.seed());
        assertEquals(Path.of("elsewhere"), plan.output());
        assertTrue(plan.restartEveryGame());
        assertEquals(80, spec.adjudication().moveLimitPlies());
        for (Entrant entrant : spec.entrants()) {
            assertEquals(TimeControl.parse("movetime 0.2"), entrant.timeControl(), "-each replaces every engine's own");
            assertEquals(50, entrant.marginMillis(OverrunMargin.BY_RULE));
            assertEquals(Map.of("Depth", "2"), entrant.options());
        }
        assertEquals(
                file.spec().entrants().get(0).name(), spec.entrants().get(0).name());
        assertEquals(file.spec().variant(), spec.variant());

        RunPlan untouched = CutechessArguments.over(file, List.of());
        assertEquals(file.fingerprint(), untouched.fingerprint(), "no flags: the file's tournament");
        assertEquals(
                TimeControl.byoyomi(5000, 500),
                CutechessArguments.over(file, List.of("-rounds", "2"))
                        .spec()
                        .entrants()
                        .get(1)
                        .timeControl(),
                "without -each time settings each engine keeps its own");

        for (String refused : List.of(
                "-engine conf=taikai-3 | -engine: a tournament file's engines come from the file",
                "-variant kyotoshogi | -variant comes from the tournament file",
                "-each cmd=/bin/x | -each cmd=: with a tournament file, -each sets only",
                "-rounds | -rounds needs a value",
                "-bogus 1 | unknown flag '-bogus'")) {
            String[] parts = refused.split(" \\| ");
            ConfigException e = assertThrows(
                    ConfigException.class, () -> CutechessArguments.over(file, List.of(parts[0].split(" "))));
            assertTrue(e.getMessage().contains(parts[1]), e.getMessage());
        }
    }

    @Test
    void cutechessNoValueFlagsAreHonouredOrRefused() throws Exception {
        java.util.function.Function<List<String>, RunPlan> parse = more -> {
            try {
                return CutechessArguments.parse(twoBuiltIns(more.toArray(String[]::new)));
            } catch (ConfigException e) {
                throw new AssertionError(e.getMessage(), e);
            }
        };
        assertEquals(
                3, parse.apply(List.of("-repeat", "2", "-rounds", "3")).spec().rounds(), "-repeat 2 is the default");
        assertEquals(false, parse.apply(List.of("-repeat", "-recover")).engineLogs());
        assertEquals(true, parse.apply(List.of("-log")).engineLogs());
        assertEquals(true, parse.apply(List.of("-debug")).engineLogs(), "cutechess's name for it");
    }

    @Test
    void anOpeningSuiteWithAByteOrderMarkIsRead(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("bom.txt"), "\uFEFF# written on Windows\nstartpos moves 1e1d\n");
        RunPlan plan = CutechessArguments.parse(twoBuiltIns("-openings", "file=" + suite));
        assertEquals(1, plan.spec().openings().size());
    }

    /** The name heads every KIF: a line break in it wrote a move of its own into every record. */
    @Test
    void aTournamentNameOnMoreThanOneLineIsRefused(@TempDir Path dir) throws Exception {
        ConfigException flag = assertThrows(
                ConfigException.class, () -> CutechessArguments.parse(twoBuiltIns("-event", "ev\n   1 ５四玉(55)")));
        assertTrue(flag.getMessage().contains("the tournament's name holds a control character"), flag.getMessage());
        Path file = Files.writeString(
                dir.resolve("t.yaml"),
                "variant: minishogi\nname: \"ev\\x0a   1 ５四玉(55)\"\nengines: [taikai-1, taikai-2]\n");
        ConfigException yaml = assertThrows(ConfigException.class, () -> TournamentFile.read(file));
        assertTrue(yaml.getMessage().contains("the tournament's name holds a control character"), yaml.getMessage());
        ConfigException empty =
                assertThrows(ConfigException.class, () -> CutechessArguments.parse(twoBuiltIns("-out", "")));
        assertEquals("-out needs a value, not an empty one", empty.getMessage());
    }

    /** A flag or key given twice kept its last value without a word, which no flag may do. */
    @Test
    void aFlagOrKeyGivenTwiceIsRefused() {
        for (String[] twice : List.of(
                new String[] {"-rounds 2 -rounds 3", "-rounds is given twice ('2', then '3'); give it once"},
                new String[] {
                    "-openings file=a.txt order=random order=sequential",
                    "-openings: order= is given twice; give it once"
                },
                new String[] {"-sprt elo0=0 elo1=5 -sprt elo0=0 elo1=10", "-sprt is given twice; give it once"},
                new String[] {"-each nodes=5 nodes=6", "-each gives nodes= twice; give it once"})) {
            ConfigException e = assertThrows(
                    ConfigException.class, () -> CutechessArguments.parse(twoBuiltIns(twice[0].split(" "))));
            assertEquals(twice[1], e.getMessage());
        }
        ConfigException names = assertThrows(
                ConfigException.class,
                () -> CutechessArguments.parse(List.of(
                        "-variant",
                        "minishogi",
                        "-engine",
                        "conf=taikai-1",
                        "name=a",
                        "name=b",
                        "-engine",
                        "conf=taikai-2")));
        assertEquals("-engine gives name= twice; give it once", names.getMessage());
        ConfigException spaced = assertThrows(
                ConfigException.class,
                () -> CutechessArguments.parse(List.of(
                        "-variant",
                        "minishogi",
                        "-engine",
                        "conf=taikai-1",
                        "name=a ",
                        "-engine",
                        "conf=taikai-2",
                        "name=a")));
        assertTrue(spaced.getMessage().contains("'a ' begins or ends with a space"), spaced.getMessage());
    }

    @Test
    void anOpeningSuiteThatCannotBeUsedSaysWhy(@TempDir Path dir) throws Exception {
        Path binary = Files.write(dir.resolve("suite.bin"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        for (String[] bad : List.of(
                new String[] {binary.toString(), "cannot read opening suite " + binary + ": it is not UTF-8 text"},
                new String[] {
                    dir.resolve("none.txt").toString(),
                    "cannot read opening suite " + dir.resolve("none.txt") + ": it does not exist"
                },
                new String[] {"../openings/kyotoshogi.txt", "../openings/kyotoshogi.txt:"})) {
            ConfigException e = assertThrows(
                    ConfigException.class, () -> CutechessArguments.parse(twoBuiltIns("-openings", "file=" + bad[0])));
            assertTrue(e.getMessage().startsWith("-openings: " + bad[1]), e.getMessage());
        }
        ConfigException kyoto = assertThrows(
                ConfigException.class,
                () -> CutechessArguments.parse(twoBuiltIns("-openings", "file=../openings/kyotoshogi.txt")));
        assertTrue(kyoto.getMessage().endsWith(" (as a Minishogi move)"), kyoto.getMessage());
    }

    @Test
    void openingsFromTheNthCutToNPlies(@TempDir Path dir) throws Exception {
        var suite = OpeningSuite.read(Path.of("../openings/minishogi.txt"), Variant.MINISHOGI);
        RunPlan flags = CutechessArguments.parse(
                twoBuiltIns("-openings", "file=../openings/minishogi.txt", "start=3", "plies=2"));
        assertEquals(suite.size() - 2, flags.spec().openings().size());
        assertEquals(
                suite.get(2).moves().subList(0, 2),
                flags.spec().openings().get(0).moves());
        assertEquals(suite.get(2).sfen(), flags.spec().openings().get(0).sfen());
        Files.writeString(
                dir.resolve("t.yaml"),
                "variant: minishogi\nengines: [taikai-1, taikai-2]\nopenings: {file: "
                        + Path.of("../openings/minishogi.txt").toAbsolutePath() + ", start: 3, plies: 2}\n");
        assertEquals(
                flags.spec().openings().stream().map(Object::toString).toList(),
                TournamentFile.read(dir.resolve("t.yaml")).spec().openings().stream()
                        .map(Object::toString)
                        .toList());
        ConfigException past = assertThrows(
                ConfigException.class,
                () -> CutechessArguments.parse(
                        twoBuiltIns("-openings", "file=../openings/minishogi.txt", "start=101")));
        assertEquals("-openings: the opening suite has 100 openings: start is 1 to 100, not 101", past.getMessage());
    }

    /** {@code -variant minishogi} with taikai-1 and taikai-2, then {@code more}. */
    private static List<String> twoBuiltIns(String... more) {
        List<String> all = new java.util.ArrayList<>(
                List.of("-variant", "minishogi", "-engine", "conf=taikai-1", "-engine", "conf=taikai-2"));
        all.addAll(List.of(more));
        return all;
    }
}
