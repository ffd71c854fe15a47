import { parentPort } from 'node:worker_threads';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import {
  L33T_MAX_SUBSTITUTIONS,
  SCORED_PREFIX_LENGTH,
  type StrengthReady,
  type StrengthRequest,
  type StrengthVerdict,
} from './password-strength.ts';

// Built once per worker: loading the dictionaries takes over a second, a check tens to hundreds of milliseconds,
// which is why this runs off the service's event loop (password-strength.ts).
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
  maxLength: SCORED_PREFIX_LENGTH,
  l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
});

parentPort!.on('message', (request: StrengthRequest) => {
  const result = zxcvbn.check(request.password, request.userInputs);
  const verdict: StrengthVerdict = {
    id: request.id,
    score: result.score,
    warning: result.feedback.warning,
    suggestions: result.feedback.suggestions,
  };
  parentPort!.postMessage(verdict);
});
parentPort!.postMessage({ ready: true } satisfies StrengthReady);
