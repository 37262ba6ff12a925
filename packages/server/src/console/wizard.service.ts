import { CampaignCreate, type CampaignDetail } from '@assay/schema';
import type { Actor } from '../audit/actor.js';
import { type CampaignDeps, createCampaign, prepareCampaign } from '../campaigns/campaigns.service.js';
import type { CampaignRow } from '../campaigns/campaigns.table.js';
import type { Caller } from '../campaigns/campaigns.wire.js';
import { BusinessError } from '../domain/errors.js';
import { formatDate } from '../util/dates.js';
import { validate } from '../validation/validator.js';
import type { DraftAnswers } from './drafts.repository.js';
import { campaignBody, choiceMissing, STEPS, type Step, stepOfMessage, stepsFor } from './wizard-steps.js';

/**
 * The campaign wizard's checks: every page is checked by the rules of POST /campaigns (the
 * schema's validator, then `prepareCampaign`, the checks `createCampaign` runs), so a page
 * refuses exactly what the API refuses, with the API's message. A message without one (a choice
 * no API field holds) is left to the page's words.
 */
export interface WizardProblem {
  readonly step: Step;
  /** The form field the message stands next to. */
  readonly field: string;
  /** The API's message; undefined: "choose one of the options" in the console's words. */
  readonly message?: string;
}

/** The API's required fields, with a stand-in used only while their page is not answered yet. */
function standIns(deps: CampaignDeps): Record<string, unknown> {
  return {
    name: 'draft',
    variant: deps.variants.list()[0]?.alias ?? 'none',
    start: formatDate(deps.clock()),
  };
}

function problemOf(error: unknown, fallback: Step): WizardProblem {
  if (!(error instanceof BusinessError)) throw error;
  const at = stepOfMessage(error.message) ?? { step: fallback, field: fallback };
  return { ...at, message: error.message };
}

/**
 * The first problem of the answers up to and with `step`, as the API would name it; undefined
 * when the API takes them. Pages not answered yet are left out (the API's defaults), required
 * ones stood in for, and a problem of a page after `step` waits for that page.
 */
export async function checkAnswers(
  deps: CampaignDeps,
  caller: Caller,
  answers: DraftAnswers,
  step: Step,
): Promise<WizardProblem | undefined> {
  const last = STEPS.indexOf(step);
  for (const asked of stepsFor(answers)) {
    if (STEPS.indexOf(asked) > last) break;
    const field = choiceMissing(asked, answers);
    if (field) return { step: asked, field };
  }
  const body = campaignBody(answers, step);
  try {
    const input = validate(CampaignCreate, { ...standIns(deps), ...body }, 'body') as CampaignCreate;
    await prepareCampaign(deps, caller, input);
    return undefined;
  } catch (error) {
    const problem = problemOf(error, step);
    // A stood-in field's problem (none should arise) is not the operator's.
    const head = (problem.message ?? '').split(/[.:]/)[0] ?? '';
    if (head in standIns(deps) && !(head in body)) return undefined;
    return STEPS.indexOf(problem.step) <= last ? problem : undefined;
  }
}

/** Every problem check: the whole body as POST /campaigns would get it. */
function wholeInput(answers: DraftAnswers): CampaignCreate {
  return validate(CampaignCreate, campaignBody(answers), 'body') as CampaignCreate;
}

/** The campaign the answers make, not written (the mail previews' campaign); undefined while they make none. */
export async function draftCampaign(
  deps: CampaignDeps,
  caller: Caller,
  answers: DraftAnswers,
): Promise<CampaignRow | undefined> {
  try {
    return await prepareCampaign(deps, caller, wholeInput(answers));
  } catch (error) {
    if (error instanceof BusinessError) return undefined;
    throw error;
  }
}

/** The problem of the whole set of answers (the check page's), or undefined. */
export async function checkAll(
  deps: CampaignDeps,
  caller: Caller,
  answers: DraftAnswers,
): Promise<WizardProblem | undefined> {
  const last = STEPS[STEPS.length - 1] as Step;
  const missing = await checkAnswers(deps, caller, answers, last);
  if (missing) return missing;
  try {
    await prepareCampaign(deps, caller, wholeInput(answers));
    return undefined;
  } catch (error) {
    return problemOf(error, 'name');
  }
}

/** Creates the campaign as POST /campaigns does, with the answers as its body; or the problem. */
export async function createFromAnswers(
  deps: CampaignDeps,
  caller: Caller,
  answers: DraftAnswers,
  actor: Actor,
): Promise<{ campaign: CampaignDetail } | { problem: WizardProblem }> {
  try {
    return { campaign: await createCampaign(deps, caller, wholeInput(answers), actor) };
  } catch (error) {
    return { problem: problemOf(error, 'name') };
  }
}
