package dev.taikai.referee.game;

import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Color;
import dev.taikai.rules.Game;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Usi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Plays one game authoritatively (ARCHITECTURE.md, decision 1): it runs the clocks, checks every move
 * against the rules, judges every ending and writes the record. Engines are trusted for nothing but
 * {@code resign}; a move they send that the rules refuse loses, {@code bestmove win} included.
 */
public final class Referee {
    private Referee() {}

    /** No transport between referee and engine: the pipe time is charged as measured. */
    public static final long SAME_MACHINE = Long.MAX_VALUE;

    /** Plays {@code assignment} between two ready players ({@code newGame} already sent) on this machine. */
    public static GameRecord play(GameAssignment assignment, Player sente, Player gote) {
        return play(assignment, sente, gote, SAME_MACHINE, GameObserver.NONE);
    }

    /**
     * Plays {@code assignment} between two ready players ({@code newGame} already sent).
     *
     * @param transportAllowanceNanos how much of the referee's own measurement of a move may be transport
     *     rather than thinking ({@link MoveRecord#charge}); {@link #SAME_MACHINE} to charge pipe times as
     *     they are
     */
    public static GameRecord play(
            GameAssignment assignment, Player sente, Player gote, long transportAllowanceNanos, GameObserver observer) {
        long started = System.currentTimeMillis();
        Game game = new Game(assignment.opening().position());
        observer.started(assignment, game.start().toSfen());
        Clock clock = new Clock(
                assignment.senteTimeControl(),
                assignment.goteTimeControl(),
                assignment.senteMarginMillis(),
                assignment.goteMarginMillis());
        long timeLossOverrunNanos = 0;
        Adjudicator adjudicator = new Adjudicator(assignment.adjudication());
        List<MoveRecord> moves = new ArrayList<>();
        Transcript transcript = new Transcript(game);
        while (!game.isOver()) {
            Color side = game.position().sideToMove();
            Player player = side == Color.SENTE ? sente : gote;
            SearchLimits limits = clock.limitsFor(side);
            PositionCommand position = transcript.positionFor(player.notation());
            long asked = System.nanoTime();
            MoveReply reply = player.go(position, limits);
            long answered = System.nanoTime();
            Optional<Ending> ended =
                    judge(game, clock, side, player, limits, reply, answered - asked, transportAllowanceNanos, moves);
            if (ended.isPresent()) {
                Outcome outcome = ended.get().outcome();
                timeLossOverrunNanos = ended.get().timeLossOverrunNanos();
                game.end(outcome.termination(), outcome.result(), outcome.detail());
                break;
            }
            MoveRecord last = moves.get(moves.size() - 1);
            observer.moved(
                    moves.size(),
                    last,
                    clock.remainingMillis(Color.SENTE),
                    clock.remainingMillis(Color.GOTE),
                    ((BestMove) reply).info() == null
                            ? List.of()
                            : ((BestMove) reply).info().pv());
            if (!game.isOver()) {
                adjudicator
                        .afterMove(game.plies(), side, last.score())
                        .ifPresent(o -> game.end(o.termination(), o.result(), o.detail()));
            }
        }
        Outcome outcome = game.outcome().orElseThrow();
        sente.gameOver(Player.endFor(outcome.winner() == Color.SENTE, outcome.result() == Result.DRAW));
        gote.gameOver(Player.endFor(outcome.winner() == Color.GOTE, outcome.result() == Result.DRAW));
        GameRecord record = new GameRecord(
                assignment,
                game.start().toSfen(),
                moves,
                outcome,
                started,
                System.currentTimeMillis(),
                timeLossOverrunNanos);
        observer.finished(record);
        return record;
    }

    /** How a move ended the game; for a loss on time, how far the move went past its allowance. */
    private record Ending(Outcome outcome, long timeLossOverrunNanos) {}

    private static Optional<Ending> ending(Outcome outcome) {
        return Optional.of(new Ending(outcome, 0));
    }

    /** The engine's answer judged: an ending outside the rules, or the move played and recorded. */
    private static Optional<Ending> judge(
            Game game,
            Clock clock,
            Color side,
            Player player,
            SearchLimits limits,
            MoveReply reply,
            long refereeNanos,
            long transportAllowanceNanos,
            List<MoveRecord> moves) {
        Result loss = Result.lossFor(side);
        String who = GameHost.who(side, player.name());
        if (reply instanceof EngineFailure failure) {
            long allowedMillis = limits.allowedMillis(side);
            if (failure.kind() == EngineFailure.Kind.STALL && allowedMillis >= 0) {
                // silent past its time, the margin and the driver's own: lost on time, as its clock says
                Outcome lost = new Outcome(
                        loss,
                        Termination.TIME_FORFEIT,
                        String.format(
                                "%s made no move within %d ms allowed (and a margin of %d ms): %s",
                                who, allowedMillis, clock.marginMillis(side), failure));
                // no move came, so there is no overrun of a move: no margin would have saved it
                return Optional.of(new Ending(lost, 0));
            }
            return ending(new Outcome(loss, failure.termination(), who + ": " + failure));
        }
        BestMove best = (BestMove) reply;
        long chargedNanos = MoveRecord.charge(best.engineNanos(), refereeNanos, transportAllowanceNanos);
        Clock.Charge charge = clock.charge(side, chargedNanos, best.cpuWaitNanos());
        if (charge.forfeit()) {
            Outcome lost = new Outcome(
                    loss,
                    Termination.TIME_FORFEIT,
                    String.format(
                            "%s used %.1f ms of %d ms allowed (and a margin of %d ms%s)",
                            who,
                            charge.usedNanos() / 1e6,
                            charge.allowedNanos() / 1_000_000,
                            clock.marginMillis(side),
                            charge.excusedNanos() > 0
                                    ? String.format(
                                            ", with %.1f ms waiting for a CPU not counted", charge.excusedNanos() / 1e6)
                                    : ""));
            return Optional.of(new Ending(lost, charge.countedOverrunNanos()));
        }
        if (best.resigned()) {
            return ending(new Outcome(loss, Termination.RESIGNATION, who + " resigned"));
        }
        if (best.declaredWin()) {
            return ending(new Outcome(
                    loss,
                    Termination.ILLEGAL_MOVE,
                    who + " sent 'bestmove win': the entering-king declaration does not exist in "
                            + game.variant().displayName()));
        }
        int move;
        try {
            move = Usi.parse(game.position(), best.move(), player.notation());
        } catch (MoveException e) {
            return ending(new Outcome(loss, Termination.ILLEGAL_MOVE, who + ": " + e.getMessage()));
        }
        game.play(move);
        var info = best.info();
        moves.add(new MoveRecord(
                Usi.format(move, game.variant()),
                best.engineNanos(),
                refereeNanos,
                clock.remainingMillis(side),
                info == null ? null : info.score(),
                info == null ? -1 : info.depth(),
                info == null ? -1 : info.nodes(),
                chargedNanos,
                charge.allowedNanos(),
                charge.overrunNanos(),
                best.cpuWaitNanos()));
        return Optional.empty();
    }
}
