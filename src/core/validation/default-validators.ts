import { z } from 'zod';
import type { ArtifactValidator } from './artifact-validator.js';
import { createValidatorRegistry, type ValidatorRegistry } from './validator-registry.js';

const PlanFilesSchema = z.looseObject({
  files: z.array(z.looseObject({ path: z.string(), change: z.string() })),
});

/**
 * A plan may only modify or delete files the workspace was observed to have, and may only create
 * files it was not observed to have. Observations come from recorded `world_observed` events, so
 * replay gives the same answer.
 */
export const planFilesObservedValidator: ArtifactValidator = {
  name: 'plan-files-observed',
  kinds: ['plan'],
  validate({ artifact, context }) {
    const plan = PlanFilesSchema.safeParse(artifact.content);
    if (!plan.success) return ['the plan must list `files: [{ path, change }]`'];
    const seen = new Map(context.observations.map((o) => [normalize(o.path), o.exists]));
    const problems: string[] = [];
    for (const { path, change } of plan.data.files) {
      const exists = seen.get(normalize(path));
      if (change === 'create') {
        if (exists === true) {
          problems.push(`\`${path}\` already exists: plan to \`modify\` it instead of \`create\``);
        }
      } else if (exists === undefined) {
        problems.push(
          `\`${path}\` was never observed in the workspace: read or list it before planning to ${change} it`,
        );
      } else if (!exists) {
        problems.push(
          `\`${path}\` does not exist in the workspace, so it cannot be ${change === 'delete' ? 'deleted' : 'modified'}: fix the path or plan to \`create\` it`,
        );
      }
    }
    return problems;
  },
};

const ReviewSchema = z.looseObject({ reviewedArtifact: z.string() });

/**
 * A review must name the artifact it reviewed: an accepted artifact of this session, from
 * another stage, that its lineage also lists as a parent.
 */
export const reviewReferencesArtifactValidator: ArtifactValidator = {
  name: 'review-references-artifact',
  kinds: ['review'],
  validate({ artifact, context }) {
    const review = ReviewSchema.safeParse(artifact.content);
    if (!review.success)
      return ['the review must name the artifact it reviewed in `reviewedArtifact`'];
    const target = review.data.reviewedArtifact;
    const accepted = context.acceptedArtifacts.find((ref) => ref.hash === target);
    const candidates = context.acceptedArtifacts
      .filter((ref) => ref.stageId !== artifact.stageId)
      .slice(-3)
      .map((ref) => `${ref.hash} (${ref.kind} from ${ref.stageId})`)
      .join(', ');
    if (!accepted) {
      return [
        `\`reviewedArtifact\` ${target} is not an accepted artifact of this session; review one of: ${candidates || 'none yet'}`,
      ];
    }
    const problems: string[] = [];
    if (accepted.stageId === artifact.stageId) {
      problems.push(
        `a review cannot review another ${artifact.stageId} artifact; review one of: ${candidates}`,
      );
    }
    if (!artifact.lineage.parents.includes(target)) {
      problems.push(
        `the reviewed artifact ${target} must also be listed in the review's lineage parents`,
      );
    }
    return problems;
  },
};

/** The semantic validators the default coding workflow runs. */
export function createDefaultValidatorRegistry(): ValidatorRegistry {
  return createValidatorRegistry([planFilesObservedValidator, reviewReferencesArtifactValidator]);
}

function normalize(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/+$/, '');
}
