package dev.taikai.rules;

import java.util.Arrays;

/**
 * An immutable position: board, hands, side to move and move number. {@link #play} returns a new
 * position; the hash key is updated incrementally. Build positions with {@link #start} or {@link
 * Sfen#parse}; both guarantee a valid position, so move generation never meets an impossible board.
 */
public final class Position {
    /** Offset of the two occupancy bitboards in {@link #bitboards}. */
    private static final int OCCUPIED = 2 * Movement.COUNT;

    private final Variant variant;
    /** Piece code per square, {@link Piece#EMPTY} for none. */
    private final byte[] board;
    /** Pieces by owner and movement: {@code [colorIndex * Movement.COUNT + movement]}; then occupancy by owner. */
    private final int[] bitboards;
    /** Hand counts packed 4 bits per kind: {@code count(kind) = hand >>> 4 * kind & 15}. */
    private final int senteHand;

    private final int goteHand;
    private final int side;
    private final int moveNumber;
    private final long key;

    /** A position from parts that {@link Sfen} has validated. */
    Position(Variant variant, byte[] board, int senteHand, int goteHand, int side, int moveNumber) {
        this.variant = variant;
        this.board = board.clone();
        this.bitboards = new int[OCCUPIED + 2];
        for (int sq = 0; sq < Square.COUNT; sq++) {
            int code = board[sq];
            if (code != Piece.EMPTY) {
                int c = Piece.colorIndex(code);
                bitboards[c * Movement.COUNT + variant.movement(Piece.type(code))] |= 1 << sq;
                bitboards[OCCUPIED + c] |= 1 << sq;
            }
        }
        this.senteHand = senteHand;
        this.goteHand = goteHand;
        this.side = side;
        this.moveNumber = moveNumber;
        this.key = computeKey();
    }

    /** The position after {@code move}, which must be legal in {@code parent}. */
    private Position(Position parent, int move) {
        variant = parent.variant;
        board = parent.board.clone();
        bitboards = parent.bitboards.clone();
        int us = parent.side;
        int them = us ^ 1;
        int ownHand = us == 0 ? parent.senteHand : parent.goteHand;
        long k = parent.key ^ Zobrist.GOTE_TO_MOVE;
        int to = Move.to(move);
        int toBit = 1 << to;
        int type = Move.pieceType(move);
        if (Move.isDrop(move)) {
            int kind = Piece.kind(type);
            int count = ownHand >>> (4 * kind) & 15;
            ownHand -= 1 << (4 * kind);
            k ^= Zobrist.hand(us, kind, count) ^ Zobrist.hand(us, kind, count - 1);
        } else {
            int from = Move.from(move);
            int captured = board[to];
            if (captured != Piece.EMPTY) {
                int capturedType = Piece.type(captured);
                int kind = Piece.kind(capturedType);
                int count = ownHand >>> (4 * kind) & 15;
                ownHand += 1 << (4 * kind);
                k ^= Zobrist.piece(captured, to) ^ Zobrist.hand(us, kind, count) ^ Zobrist.hand(us, kind, count + 1);
                bitboards[them * Movement.COUNT + variant.movement(capturedType)] &= ~toBit;
                bitboards[OCCUPIED + them] &= ~toBit;
            }
            int fromBit = 1 << from;
            board[from] = Piece.EMPTY;
            bitboards[us * Movement.COUNT + variant.movement(type)] &= ~fromBit;
            bitboards[OCCUPIED + us] &= ~fromBit;
            k ^= Zobrist.piece(Piece.code(us, type), from);
        }
        int placed = Piece.code(us, Move.typeAfter(move));
        board[to] = (byte) placed;
        bitboards[us * Movement.COUNT + variant.movement(Move.typeAfter(move))] |= toBit;
        bitboards[OCCUPIED + us] |= toBit;
        k ^= Zobrist.piece(placed, to);
        senteHand = us == 0 ? ownHand : parent.senteHand;
        goteHand = us == 1 ? ownHand : parent.goteHand;
        side = them;
        moveNumber = parent.moveNumber + 1;
        key = k;
    }

    /** The variant's start position. */
    public static Position start(Variant variant) {
        try {
            return Sfen.parse(variant, variant.startSfen());
        } catch (InvalidSfenException e) {
            throw new AssertionError("start position of " + variant + " does not parse", e);
        }
    }

    /** The position after {@code move}. The move must be legal here (from {@link #legalMoves} or {@link Usi}). */
    public Position play(int move) {
        return new Position(this, move);
    }

    public Variant variant() {
        return variant;
    }

    public Color sideToMove() {
        return Color.of(side);
    }

    int sideIndex() {
        return side;
    }

    /** Plies are counted from 1 as in USI SFEN: the move number rises by one with every move. */
    public int moveNumber() {
        return moveNumber;
    }

    /** Hash of board, hands and side to move (not the move number). Equal positions have equal keys. */
    public long key() {
        return key;
    }

    /** Piece code on {@code square} (see {@link Piece}), or {@link Piece#EMPTY}. */
    public int pieceAt(int square) {
        return board[square];
    }

    /** How many pieces of {@code kind} {@code color} holds in hand. */
    public int handCount(Color color, int kind) {
        return hand(color.index()) >>> (4 * kind) & 15;
    }

    int hand(int colorIndex) {
        return colorIndex == 0 ? senteHand : goteHand;
    }

    int occupied(int colorIndex) {
        return bitboards[OCCUPIED + colorIndex];
    }

    int occupied() {
        return bitboards[OCCUPIED] | bitboards[OCCUPIED + 1];
    }

    /** Pieces of one owner that move like {@code movement}. */
    int piecesMoving(int colorIndex, int movement) {
        return bitboards[colorIndex * Movement.COUNT + movement];
    }

    int kingSquare(int colorIndex) {
        return Integer.numberOfTrailingZeros(bitboards[colorIndex * Movement.COUNT + Movement.KING]);
    }

    /** Pieces of {@code by} that attack {@code square} when the board's occupancy is {@code occupied}. */
    int attackersTo(int square, int by, int occupied) {
        int[] bb = bitboards;
        int o = by * Movement.COUNT;
        int reverse = (by ^ 1) * Square.COUNT + square; // a step pattern seen from the target
        return (Attacks.PAWN[reverse] & bb[o + Movement.PAWN])
                | (Attacks.SILVER[reverse] & bb[o + Movement.SILVER])
                | (Attacks.GOLD[reverse] & bb[o + Movement.GOLD])
                | (Attacks.KNIGHT[reverse] & bb[o + Movement.KNIGHT])
                | (Attacks.KING[square] & (bb[o + Movement.KING] | bb[o + Movement.HORSE] | bb[o + Movement.DRAGON]))
                | (Attacks.bishop(square, occupied) & (bb[o + Movement.BISHOP] | bb[o + Movement.HORSE]))
                | (Attacks.rook(square, occupied)
                        & (bb[o + Movement.ROOK]
                                | bb[o + Movement.DRAGON]
                                | (Attacks.FORWARD[reverse] & bb[o + Movement.LANCE])));
    }

    /** Pieces of the side to move that may only move along the line between their king and an enemy slider. */
    int pinned(int kingSquare) {
        int them = side ^ 1;
        int[] bb = bitboards;
        int o = them * Movement.COUNT;
        int snipers = (Attacks.ROOK_EMPTY[kingSquare] & (bb[o + Movement.ROOK] | bb[o + Movement.DRAGON]))
                | (Attacks.BISHOP_EMPTY[kingSquare] & (bb[o + Movement.BISHOP] | bb[o + Movement.HORSE]))
                | (Attacks.FORWARD[side * Square.COUNT + kingSquare] & bb[o + Movement.LANCE]);
        int occupied = occupied();
        int pinned = 0;
        for (; snipers != 0; snipers &= snipers - 1) {
            int between =
                    Attacks.BETWEEN[kingSquare * Square.COUNT + Integer.numberOfTrailingZeros(snipers)] & occupied;
            if (between != 0 && (between & (between - 1)) == 0) {
                pinned |= between;
            }
        }
        return pinned & occupied(side);
    }

    /** Enemy pieces giving check to the side to move. */
    int checkers() {
        return attackersTo(kingSquare(side), side ^ 1, occupied());
    }

    public boolean inCheck() {
        return checkers() != 0;
    }

    /** The legal moves, in no particular order. */
    public int[] legalMoves() {
        int[] buffer = new int[MoveGenerator.MAX_MOVES];
        return Arrays.copyOf(buffer, MoveGenerator.generate(this, buffer));
    }

    public boolean isLegal(int move) {
        for (int legal : legalMoves()) {
            if (legal == move) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code move}, a pseudo-legal move of the side to move, would leave its own king attacked. */
    boolean leavesOwnKingInCheck(int move) {
        Position after = play(move);
        return after.attackersTo(after.kingSquare(side), side ^ 1, after.occupied()) != 0;
    }

    /** Same board, hands and side to move; the move number may differ. */
    public boolean samePosition(Position other) {
        return key == other.key
                && variant == other.variant
                && side == other.side
                && senteHand == other.senteHand
                && goteHand == other.goteHand
                && Arrays.equals(board, other.board);
    }

    /** The key computed from scratch; always equal to {@link #key()}. */
    long computeKey() {
        long k = side == 1 ? Zobrist.GOTE_TO_MOVE : 0;
        for (int sq = 0; sq < Square.COUNT; sq++) {
            if (board[sq] != Piece.EMPTY) {
                k ^= Zobrist.piece(board[sq], sq);
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
                k ^= Zobrist.hand(c, kind, hand(c) >>> (4 * kind) & 15);
            }
        }
        return k;
    }

    /** Canonical SFEN in Fairy-Stockfish notation. */
    public String toSfen() {
        return Sfen.format(this, Notation.FAIRY_STOCKFISH);
    }

    public String toSfen(Notation notation) {
        return Sfen.format(this, notation);
    }

    @Override
    public String toString() {
        return toSfen();
    }
}
