/**
 * `Status` bodies exactly as kube-apiserver writes them (k8s.io/apimachinery
 * pkg/api/errors): clients such as @kubernetes/client-node and kubectl read
 * `reason`, `code` and `message` from them, so the shapes must be real.
 */

/** The JSON of a `metav1.Status` failure. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: { reason?: string; message: string; field?: string }[] };
  code: number;
}

/** An error the router raises; the server turns it into its Status response. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(readonly body: StatusBody) {
    super(body.message);
  }
}

/** Which object a Status is about, as the real `details` names it. */
export interface StatusTarget {
  /** The resource (plural), which the real server puts in `details.kind`. */
  resource: string;
  group: string;
  name?: string;
}

function failure(code: number, reason: string, message: string, details?: StatusBody['details']): StatusBody {
  const body: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) body.details = details;
  return body;
}

function detailsOf(target: StatusTarget): NonNullable<StatusBody['details']> {
  const details: NonNullable<StatusBody['details']> = {};
  if (target.name !== undefined) details.name = target.name;
  if (target.group !== '') details.group = target.group;
  details.kind = target.resource;
  return details;
}

/** `pods "x" not found` (errors.NewNotFound). */
export function notFound(target: StatusTarget & { name: string }): StatusBody {
  const qualified = target.group ? `${target.resource}.${target.group}` : target.resource;
  return failure(404, 'NotFound', `${qualified} "${target.name}" not found`, detailsOf(target));
}

/** What the apiserver answers for a path no handler serves. */
export function pathNotFound(): StatusBody {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** errors.NewBadRequest: no details, just the message. */
export function badRequest(message: string): StatusBody {
  return failure(400, 'BadRequest', message);
}

/** errors.NewInvalid, e.g. for PodLogOptions: `PodLogOptions "p" is invalid: tailLines: ...`. */
export function invalid(kind: string, name: string, causes: { field: string; message: string }[]): StatusBody {
  const text = causes.map((cause) => `${cause.field}: ${cause.message}`);
  const joined = text.length === 1 ? text[0] : `[${text.join(', ')}]`;
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${joined}`, {
    name,
    kind,
    causes: causes.map((cause) => ({ reason: 'FieldValueInvalid', message: cause.message, field: cause.field })),
  });
}

/** An RBAC denial, worded as the authorizer's `forbidden` message. */
export function forbidden(options: {
  user: string;
  verb: string;
  resource: string;
  subresource?: string;
  group: string;
  namespace?: string;
  name?: string;
}): StatusBody {
  const full = options.subresource ? `${options.resource}/${options.subresource}` : options.resource;
  const qualified = options.group ? `${options.resource}.${options.group}` : options.resource;
  const subject = options.name !== undefined ? `${qualified} "${options.name}"` : qualified;
  const scope = options.namespace !== undefined ? `in the namespace "${options.namespace}"` : 'at the cluster scope';
  const message =
    `${subject} is forbidden: User "${options.user}" cannot ${options.verb} resource "${full}" ` +
    `in API group "${options.group}" ${scope}`;
  return failure(403, 'Forbidden', message, detailsOf({ resource: options.resource, group: options.group, name: options.name }));
}

/** The anonymous rejection of a request without a valid bearer token. */
export function unauthorized(): StatusBody {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

/** errors.NewInternalError. */
export function internalError(message: string): StatusBody {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** A verb this read-only simulator does not implement. */
export function methodNotAllowed(method: string): StatusBody {
  return failure(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource (${method})`, {});
}

/**
 * The 410 of storage/etcd3 when a continue token's revision was compacted; the
 * real server hands a fresh token for the remainder in `metadata.continue`.
 */
export function continueExpired(freshToken: string): StatusBody {
  const body = failure(
    410,
    'Expired',
    'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
      'without the continue parameter, or use the continue token in this response to retrieve the remainder of ' +
      'the results. Continuing with the provided token results in an inconsistent list - objects that were ' +
      'created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
  );
  body.metadata.continue = freshToken;
  return body;
}
