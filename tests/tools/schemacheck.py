#!/usr/bin/env python3
"""A small JSON Schema validator, enough for doc/gprof.schema.json: type,
const, enum, properties, required, additionalProperties (false or a
schema), items, minimum, $ref to "#/$defs/NAME".  Any other keyword that
constrains is refused, so the schema cannot silently say more than is
checked.  Usage: schemacheck.py SCHEMA FILE...  (exit 1 on the first
error, with its path)."""
import json, sys

NOTES = {'$schema', '$id', 'title', 'description', '$defs'}
CHECKED = {'type', 'const', 'enum', 'properties', 'required', 'additionalProperties',
           'items', 'minimum', '$ref'}


def is_type(v, t):
    if t == 'null': return v is None
    if t == 'boolean': return isinstance(v, bool)
    if t == 'integer': return isinstance(v, int) and not isinstance(v, bool)
    if t == 'number': return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == 'string': return isinstance(v, str)
    if t == 'array': return isinstance(v, list)
    if t == 'object': return isinstance(v, dict)
    raise ValueError('unknown type ' + t)


def check(root, schema, v, path):
    for k in schema:
        if k not in NOTES and k not in CHECKED:
            raise ValueError(f'schema keyword {k!r} is not supported by this checker')
    if '$ref' in schema:
        ref = schema['$ref']
        assert ref.startswith('#/$defs/'), ref
        check(root, root['$defs'][ref[len('#/$defs/'):]], v, path)
    if 'type' in schema:
        ts = schema['type'] if isinstance(schema['type'], list) else [schema['type']]
        if not any(is_type(v, t) for t in ts):
            return f'{path}: {v!r:.60} is not of type {ts}'
    if 'const' in schema and not (v == schema['const'] and type(v) == type(schema['const'])):
        return f'{path}: {v!r:.60} is not {schema["const"]!r}'
    if 'enum' in schema and v not in schema['enum']:
        return f'{path}: {v!r:.60} is not one of {schema["enum"]}'
    if 'minimum' in schema and is_type(v, 'number') and v < schema['minimum']:
        return f'{path}: {v} is below {schema["minimum"]}'
    if isinstance(v, dict):
        props = schema.get('properties', {})
        for r in schema.get('required', []):
            if r not in v:
                return f'{path}: {r!r} is missing'
        for k, x in v.items():
            if k in props:
                e = check(root, props[k], x, f'{path}.{k}')
                if e: return e
            elif schema.get('additionalProperties') is False:
                return f'{path}: {k!r} is not allowed'
            elif isinstance(schema.get('additionalProperties'), dict):
                e = check(root, schema['additionalProperties'], x, f'{path}.{k}')
                if e: return e
    if isinstance(v, list) and 'items' in schema:
        for i, x in enumerate(v):
            e = check(root, schema['items'], x, f'{path}[{i}]')
            if e: return e
    return None


def validate(schema, doc):
    return check(schema, schema, doc, '$')


if __name__ == '__main__':
    schema = json.load(open(sys.argv[1]))
    for f in sys.argv[2:]:
        e = validate(schema, json.load(open(f, encoding='utf-8')))
        if e:
            print(f'{f}: {e}')
            sys.exit(1)
