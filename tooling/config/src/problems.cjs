// Turns the errors of a validator generated from config.schema.json into sentences that name the
// field and say what to put there. Plain JavaScript, because deploy/nginx/render.mjs runs it in Node as it is.

/**
 * @param {readonly import('./validators.generated.cjs').SchemaError[] | null | undefined} errors
 * @param {unknown} data the value that was validated
 * @param {string} [prefix] how the validated value's own fields are named, e.g. "csp." (default: none)
 * @returns {string[]} one sentence per problem, in the order found, without repeats
 */
function describeSchemaErrors(errors, data, prefix = '') {
  const sentences = (errors ?? []).filter((error) => !onlyAboutKeys(error)).map((error) => describe(error, data, prefix));
  return [...new Set(sentences)];
}

/** Fields whose value is a secret, never quoted back: the private part of a release key pasted by mistake. */
const SECRET = /\/signingKeys\/\d+\/d$/;

/** @param {import('./validators.generated.cjs').SchemaError} error @param {unknown} data @param {string} prefix */
function describe(error, data, prefix) {
  const field = fieldName(error.instancePath, data, prefix);
  const subject = field === '' ? 'The config' : field;
  const { params } = error;
  switch (error.keyword) {
    case 'errorMessage':
      return typeof error.propertyName === 'string'
        ? `${subject} has the key ${JSON.stringify(error.propertyName)}, which ${error.message}.`
        : `${subject} ${error.message}${SECRET.test(error.instancePath) ? '' : got(valueAt(error.instancePath, data))}.`;
    case 'required':
      return `${field === '' ? '' : `${field}.`}${String(params.missingProperty)} is missing (see config.schema.json).`;
    case 'additionalProperties':
      return `${subject} has an unknown key "${String(params.additionalProperty)}": check its spelling against config.schema.json.`;
    case 'type':
      return field === ''
        ? 'The config must be a JSON object with "identityProvider" and "remotes".'
        : `${subject} must be ${params.type === 'object' || params.type === 'array' ? 'an' : 'a'} ${String(params.type)}.`;
    default:
      return `${subject} fails the schema's "${error.keyword}" rule (${JSON.stringify(params)}).`;
  }
}

/**
 * Whether an error only restates, in an object's general message, a key problem that the key's own
 * message already names (`propertyNames`).
 *
 * @param {import('./validators.generated.cjs').SchemaError} error
 */
function onlyAboutKeys(error) {
  const original = error.params.errors;
  return (
    error.keyword === 'errorMessage' &&
    error.propertyName === undefined &&
    Array.isArray(original) &&
    original.length > 0 &&
    original.every((e) => isObject(e) && e.keyword === 'propertyNames')
  );
}

/**
 * "/remotes/0/clientRoles/reports" → 'remotes[0] ("profile").clientRoles.reports'
 *
 * @param {string} pointer a JSON pointer into `data` @param {unknown} data @param {string} prefix
 */
function fieldName(pointer, data, prefix) {
  let name = '';
  let value = data;
  for (const segment of segments(pointer)) {
    value = child(value, segment);
    name += /^\d+$/.test(segment) ? `[${segment}]` : `${name === '' ? '' : '.'}${segment}`;
    if (/^\d+$/.test(segment) && isObject(value) && typeof value.name === 'string' && value.name.trim() !== '') {
      name += ` (${JSON.stringify(value.name)})`;
    }
  }
  return name === '' ? '' : `${prefix}${name}`;
}

/** @param {string} pointer a JSON pointer into `data` @param {unknown} data @returns {unknown} */
function valueAt(pointer, data) {
  let value = data;
  for (const segment of segments(pointer)) value = child(value, segment);
  return value;
}

/** "/a~1b/0" → ["a/b", "0"] (RFC 6901's escapes undone) @param {string} pointer */
function segments(pointer) {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** An object's field or an array's item; undefined inside anything else. @param {unknown} value @param {string} segment */
function child(value, segment) {
  if (Array.isArray(value)) return /** @type {unknown} */ (value[Number(segment)]);
  // own keys only: a key such as "__proto__" in a hostile config must not walk into the prototype
  return isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
}

/** The offending value, when it is short enough to quote. @param {unknown} value */
function got(value) {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = JSON.stringify(value);
    return text.length <= 120 ? `; it is ${text}` : '';
  }
  return '';
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

module.exports = { describeSchemaErrors };
