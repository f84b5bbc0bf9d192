// Taikai's 5x5 board for the browser: reads an SFEN, plays a game's recorded USI moves (Fairy-Stockfish
// notation, as the records keep them) and draws the board with both hands. The moves are the referee's,
// checked when they were played, so nothing here judges legality: a move is a from-to (with its
// promotion or turn-over suffix) or a drop. Squares: USI file 5 is sente's left, rank a the far rank.
var Taikai = window.Taikai || {};
window.Taikai = Taikai;

Taikai.board = (function () {
  // The face each Fairy-Stockfish letter shows, by variant: Kyoto shogi's pieces show the face they have.
  var KANJI = {
    minishogi: { K: '玉', G: '金', S: '銀', B: '角', R: '飛', P: '歩', '+S': '全', '+B': '馬', '+R': '龍', '+P': 'と' },
    kyotoshogi: { K: '玉', '+L': 'と', L: '香', S: '銀', '+S': '角', '+N': '金', N: '桂', P: '歩', '+P': '飛' }
  };
  var HAND_ORDER = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

  /** {board: 5 ranks of 5 squares (null or {piece, sente}), hands: {sente: {P: 2}, gote: {}}, senteToMove}. */
  function parse(sfen) {
    var fields = sfen.trim().split(/\s+/);
    var board = [];
    fields[0].split('/').forEach(function (rank) {
      var row = [];
      for (var i = 0; i < rank.length; i++) {
        var c = rank.charAt(i);
        if (c >= '1' && c <= '9') {
          for (var n = 0; n < Number(c); n++) row.push(null);
        } else if (c === '+') {
          var next = rank.charAt(++i);
          row.push({ piece: '+' + next.toUpperCase(), sente: next === next.toUpperCase() });
        } else {
          row.push({ piece: c.toUpperCase(), sente: c === c.toUpperCase() });
        }
      }
      board.push(row);
    });
    var hands = { sente: {}, gote: {} };
    var count = 0;
    var text = fields[2] || '-';
    for (var j = 0; text !== '-' && j < text.length; j++) {
      var h = text.charAt(j);
      if (h >= '0' && h <= '9') {
        count = count * 10 + Number(h);
        continue;
      }
      var side = h === h.toUpperCase() ? 'sente' : 'gote';
      hands[side][h.toUpperCase()] = (hands[side][h.toUpperCase()] || 0) + (count || 1);
      count = 0;
    }
    return { board: board, hands: hands, senteToMove: (fields[1] || 'b') === 'b' };
  }

  function square(text, at) {
    return { rank: text.charCodeAt(at + 1) - 97, file: 5 - Number(text.charAt(at)) };
  }

  /** The position after one USI move; {@code position} is left as it was. */
  function play(position, move) {
    var next = {
      board: position.board.map(function (row) { return row.slice(); }),
      hands: { sente: Object.assign({}, position.hands.sente), gote: Object.assign({}, position.hands.gote) },
      senteToMove: !position.senteToMove
    };
    var mover = position.senteToMove ? 'sente' : 'gote';
    var star = move.indexOf('*');
    if (star >= 0) {
      var letters = move.substring(0, star);
      var to = square(move, star + 1);
      var base = letters.replace('+', '');
      next.hands[mover][base] = (next.hands[mover][base] || 1) - 1;
      if (!next.hands[mover][base]) delete next.hands[mover][base];
      next.board[to.rank][to.file] = { piece: letters, sente: position.senteToMove };
      return next;
    }
    var from = square(move, 0);
    var target = square(move, 2);
    var suffix = move.substring(4);
    var moving = next.board[from.rank][from.file];
    var taken = next.board[target.rank][target.file];
    if (taken) {
      var kind = taken.piece.replace('+', '');
      next.hands[mover][kind] = (next.hands[mover][kind] || 0) + 1;
    }
    var piece = moving ? moving.piece : '?';
    if (suffix === '+') piece = '+' + piece.replace('+', '');
    if (suffix === '-') piece = piece.replace('+', '');
    next.board[from.rank][from.file] = null;
    next.board[target.rank][target.file] = { piece: piece, sente: position.senteToMove };
    return next;
  }

  /** Every position of a game: the start and one after each move. */
  function positions(startSfen, moves) {
    var all = [parse(startSfen)];
    moves.forEach(function (move) { all.push(play(all[all.length - 1], move)); });
    return all;
  }

  function hand(counts, variant) {
    var span = document.createElement('div');
    span.className = 'hand';
    var any = false;
    HAND_ORDER.forEach(function (kind) {
      if (counts[kind]) {
        any = true;
        var piece = document.createElement('span');
        piece.className = 'piece';
        piece.textContent = (KANJI[variant][kind] || kind) + (counts[kind] > 1 ? counts[kind] : '');
        piece.setAttribute('data-piece', kind + (counts[kind] > 1 ? counts[kind] : ''));
        span.appendChild(piece);
      }
    });
    if (!any) span.textContent = '—';
    return span;
  }

  /**
   * Draws {@code position} into {@code element}: gote's hand, the board (gote's pieces turned round, the
   * last move's squares marked), sente's hand. Each square carries data-square (USI) and data-piece.
   */
  function draw(element, position, variant, lastMove, names) {
    element.innerHTML = '';
    element.classList.add('taikai-board');
    var goteLine = document.createElement('div');
    goteLine.className = 'hand-line gote';
    goteLine.textContent = '☖ ' + ((names && names.gote) || 'gote') + ' ';
    goteLine.appendChild(hand(position.hands.gote, variant));
    element.appendChild(goteLine);
    var marked = {};
    if (lastMove) {
      var star = lastMove.indexOf('*');
      if (star >= 0) {
        marked[lastMove.substr(star + 1, 2)] = true;
      } else {
        marked[lastMove.substr(0, 2)] = true;
        marked[lastMove.substr(2, 2)] = true;
      }
    }
    var grid = document.createElement('div');
    grid.className = 'grid';
    for (var rank = 0; rank < 5; rank++) {
      for (var file = 0; file < 5; file++) {
        var cell = document.createElement('div');
        var name = (5 - file) + String.fromCharCode(97 + rank);
        cell.className = 'square' + (marked[name] ? ' last' : '');
        cell.setAttribute('data-square', name);
        var occupant = position.board[rank][file];
        if (occupant) {
          var piece = document.createElement('span');
          piece.className = 'piece ' + (occupant.sente ? 'sente' : 'gote');
          piece.textContent = KANJI[variant][occupant.piece] || occupant.piece;
          cell.setAttribute('data-piece', occupant.sente ? occupant.piece : occupant.piece.toLowerCase());
          cell.appendChild(piece);
        }
        grid.appendChild(cell);
      }
    }
    element.appendChild(grid);
    var senteLine = document.createElement('div');
    senteLine.className = 'hand-line sente';
    senteLine.textContent = '☗ ' + ((names && names.sente) || 'sente') + ' ';
    senteLine.appendChild(hand(position.hands.sente, variant));
    element.appendChild(senteLine);
  }

  /** The board part of an SFEN, as the records write it, for comparing with a drawn position. */
  function boardSfen(position) {
    return position.board.map(function (row) {
      var text = '';
      var empty = 0;
      row.forEach(function (occupant) {
        if (!occupant) {
          empty++;
          return;
        }
        if (empty) text += empty;
        empty = 0;
        var letters = occupant.piece;
        text += occupant.sente ? letters : letters.toLowerCase();
      });
      return text + (empty ? empty : '');
    }).join('/');
  }

  return { parse: parse, play: play, positions: positions, draw: draw, boardSfen: boardSfen, kanji: KANJI };
})();
