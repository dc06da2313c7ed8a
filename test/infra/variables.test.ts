import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MailwrightFunction } from '../../infra/constructs/mailwright-function';
import { functionSettings } from '../../infra/function-settings';
import { variables } from '../../shared/config/variables';
import { functionGroups } from '../../shared/http/routes';
import { type Resource, assertionApp, stackTemplate } from '../support/infra-template';

const variablesOfFunctions = (template: Template) =>
  (Object.values(template.findResources('AWS::Lambda::Function')) as Resource[]).map((fn) => (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>);

describe('the environment variable registry (shared/config/variables.ts) in the stack', () => {
  test('every variable a function gets is an entry, and every entry is set by some function', () => {
    const registered = Object.values(variables).map((variable) => variable.name);
    const set = new Set(variablesOfFunctions(stackTemplate()).flatMap((environment) => Object.keys(environment)));
    // Set only when the operator gives their context value (-c dashboardMailFrom=…, the function settings).
    const optional = new Set<string>([variables.dashboardMailFrom.name, ...functionSettings.map((setting) => setting.env)]);

    expect([...set].filter((name) => !registered.includes(name as never))).toEqual([]);
    expect(registered.filter((name) => !set.has(name) && !optional.has(name))).toEqual([]);
  });

  test('each function setting given as context reaches the function as its variable', () => {
    const stack = new Stack(assertionApp(Object.fromEntries(functionSettings.map((setting) => [setting.context, `${setting.context}-value`]))), 'Settings');
    new MailwrightFunction(stack, 'Fn', { group: functionGroups[0] });

    const [environment] = variablesOfFunctions(Template.fromStack(stack));
    for (const setting of functionSettings) expect(environment?.[setting.env]).toBe(`${setting.context}-value`);
  });
});
