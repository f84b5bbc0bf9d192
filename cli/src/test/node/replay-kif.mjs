// Replays KIF files with lishogi's parser and rules (the npm package shogiops): for each file given,
// prints one JSON line {file, rules, moves, sfen, error}: the variant the header names, how many moves
// were read and played legally, and the SFEN of the position after the last one (or why a move failed).
// Used by KifInteropTest; run it as: node replay-kif.mjs FILE...
import { readFileSync } from 'node:fs';
import { parseKifHeader, parseKifMoveOrDrop } from 'shogiops/notation/kif';
import { parseJapaneseSquare } from 'shogiops/notation/util';
import { makeSfen } from 'shogiops/sfen';

const MOVE_LINE = /^ *(\d+) +(.+)$/; // the number, then the move and its time
// shogiops 0.18.0 writes a Kyoto tokin drop as と打 (makeKifMoveOrDrop) but its parser's drop pattern
// has no と; that one form is read here, and lishogi's rules still judge the move (docs/tournaments.md, "KIF").
const TOKIN_DROP = /^([１２３４５６７８９][一二三四五六七八九])と打/;

function parseMove(text, pos, lastDest) {
  const md = parseKifMoveOrDrop(text, lastDest);
  if (md) return md;
  const tokin = pos.rules === 'kyotoshogi' ? text.match(TOKIN_DROP) : null;
  return tokin ? { role: 'tokin', to: parseJapaneseSquare(tokin[1]) } : undefined;
}

for (const file of process.argv.slice(2)) {
  const kif = readFileSync(file, 'utf8');
  const out = { file, rules: null, moves: 0, sfen: null, error: null };
  const header = parseKifHeader(kif);
  if (header.isErr) {
    out.error = 'header: ' + header.error.message;
  } else {
    const pos = header.value;
    out.rules = pos.rules;
    let lastDest;
    for (const line of kif.split(/\r?\n/)) {
      const match = line.match(MOVE_LINE);
      if (!match || line.startsWith('*')) continue;
      const md = parseMove(match[2], pos, lastDest);
      if (!md) break; // the ending word (投了, 詰み, ...): no move
      if (!pos.isLegal(md)) {
        out.error = 'move ' + match[1] + ' (' + match[2].trim() + ') is not legal here: ' + makeSfen(pos);
        break;
      }
      pos.play(md);
      lastDest = md.to;
      out.moves++;
    }
    out.sfen = makeSfen(pos);
  }
  console.log(JSON.stringify(out));
}
