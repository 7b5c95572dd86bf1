// Replays review logs with ts-fsrs (its defaults, fuzz off) for the Go
// scheduler's test: argv[2] is ts-fsrs's ES module; stdin holds the logs
// ([[{"t": ms, "g": grade}, ...], ...]); stdout gets the card after each
// review.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const { fsrs, createEmptyCard, generatorParameters } = await import(pathToFileURL(process.argv[2]).href);
const f = fsrs(generatorParameters({ enable_fuzz: false }));
const logs = JSON.parse(readFileSync(0, "utf8"));
const out = logs.map((log) => {
  let card = createEmptyCard(new Date(log[0].t));
  return log.map(({ t, g }) => {
    card = f.next(card, new Date(t), g).card;
    return {
      due: card.due.getTime(),
      stability: card.stability,
      difficulty: card.difficulty,
      state: card.state,
      scheduled_days: card.scheduled_days,
      reps: card.reps,
      lapses: card.lapses,
      step: card.learning_steps,
    };
  });
});
process.stdout.write(JSON.stringify(out));
