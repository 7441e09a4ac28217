import { readOptionFile } from './option-values.ts';
import { parsePolicy, type Policy } from '../../agent/policy/policy.ts';
import type { AtlasConfig } from '../../config/schema.ts';
import { AtlasError } from '../../errors.ts';
import type { CliIO } from '../io.ts';

/**
 * Reads and validates the policy file of `--policy FILE` (relative to the CLI's cwd). A file
 * that cannot be read, or is invalid, is a usage error naming the file and the fix.
 *
 * @example
 * const policy = readPolicyFile(io, 'examples/allergy/policy.yaml'); // { rules: [...], source: 'examples/allergy/policy.yaml' }
 */
export function readPolicyFile(io: CliIO, file: string): Policy {
  const text = readOptionFile(io, file, 'policy file', 'Pass the path of a YAML policy, e.g. atlas ask --policy examples/allergy/policy.yaml.');
  return parsePolicy(text, file);
}

/**
 * The policy of a command's `--policy FILE [--strict]`, else the `policy:` of its config (the
 * command line wins); undefined without either. `--strict` without a policy is a usage error (it
 * applies to a policy).
 *
 * @example
 * const policyOptions = commandPolicy(io, { policy: 'examples/allergy/policy.yaml', strict: true });
 * // { policy: { rules: [...] }, policyStrict: true }
 */
export function commandPolicy(io: CliIO, options: { policy?: string; strict?: boolean }, config?: AtlasConfig): { policy: Policy; policyStrict: boolean } | undefined {
  const policy = options.policy ? readPolicyFile(io, options.policy) : config?.policy;
  if (options.strict && !policy) {
    throw new AtlasError(
      'usage',
      `Atlas: --strict applies to a policy; pass --policy FILE with it (e.g. --policy examples/allergy/policy.yaml)${config ? ` or add policy: to ${config.source}` : ''}, or drop --strict.`,
    );
  }
  return policy ? { policy, policyStrict: options.strict === true } : undefined;
}
