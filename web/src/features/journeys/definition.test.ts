import { describe, expect, it } from 'vitest';
import {
  addStep,
  connect,
  disconnect,
  emptyDefinition,
  removeStep,
  renameStep,
  START,
  updateStep,
} from './definition';
import type { JourneyDefinition, SendStep } from './types';
import { validate } from './validate';

/** Fills in what a new step leaves empty, so only the flow's shape is left for validate to judge. */
function complete(def: JourneyDefinition): JourneyDefinition {
  return {
    ...def,
    steps: def.steps.map((s) => (s.kind === 'send' ? { ...s, template_id: 4, subject: 'Hello {{First.Name}}' } : s)),
  };
}

/** The welcome series of the issue, drawn the way a user would: each step added below the one before. */
function welcomeSeries(): JourneyDefinition {
  let def: JourneyDefinition = { ...emptyDefinition(), triggers: [{ kind: 'form_signup', form_id: 3 }] };
  def = addStep(def, 'send').definition; // send1: welcome
  def = addStep(def, 'wait', { from: 'send1', port: 'next' }).definition;
  def = addStep(def, 'send', { from: 'wait1', port: 'next' }).definition; // send2: the ask
  def = addStep(def, 'branch', { from: 'send2', port: 'next' }).definition;
  def = updateStep(def, 'branch1', { condition: { kind: 'gave' } });
  def = addStep(def, 'send', { from: 'branch1', port: 'yes' }).definition; // send3: thanks
  def = addStep(def, 'send', { from: 'branch1', port: 'no' }).definition; // send4: second ask
  return complete(def);
}

describe('journey definition editing', () => {
  it('builds the welcome series as a valid definition, the first step being the start', () => {
    const def = welcomeSeries();
    expect(def.start).toBe('send1');
    expect(def.steps.map((s) => s.id)).toEqual(['send1', 'wait1', 'send2', 'branch1', 'send3', 'send4']);
    expect(def.steps.find((s) => s.id === 'branch1')).toMatchObject({ yes: 'send3', no: 'send4' });
    expect(validate(def, { activating: true })).toEqual([]);
  });

  it('inserting on a port keeps the chain whole and moves the steps below down', () => {
    const def = welcomeSeries();
    const { definition, id } = addStep(def, 'add_to_list', { from: 'send1', port: 'next' });
    expect(id).toBe('add_to_list1');
    expect(definition.steps.find((s) => s.id === 'send1')).toMatchObject({ next: 'add_to_list1' });
    expect(definition.steps.find((s) => s.id === 'add_to_list1')).toMatchObject({ next: 'wait1', y: 120 });
    expect(definition.steps.find((s) => s.id === 'wait1')?.y).toBe(240);
    // Only the new step's own field (its list) is missing.
    expect(validate(definition).map((p) => p.message)).toEqual(['Step "add_to_list1" needs a list.']);
    // Inserting before the first step moves the start.
    const before = addStep(def, 'wait', { from: START, port: 'next' }).definition;
    expect(before.start).toBe('wait2');
    expect(before.steps.find((s) => s.id === 'wait2')).toMatchObject({ next: 'send1' });
  });

  it('removing a step closes the gap; removing the start moves the start on', () => {
    const def = welcomeSeries();
    const noWait = removeStep(def, 'wait1');
    expect(noWait.steps.find((s) => s.id === 'send1')).toMatchObject({ next: 'send2' });
    expect(validate(noWait)).toEqual([]);
    const noFirst = removeStep(def, 'send1');
    expect(noFirst.start).toBe('wait1');
    expect(validate(noFirst)).toEqual([]);
    // A branch's "yes" path goes on; what hung off "no" can no longer be reached, and validate names it.
    const noBranch = removeStep(def, 'branch1');
    expect(noBranch.steps.find((s) => s.id === 'send2')).toMatchObject({ next: 'send3' });
    expect(validate(noBranch).map((p) => p.message)).toEqual(['Step "send4" cannot be reached.']);
    expect(validate(removeStep(noBranch, 'send4'))).toEqual([]);
  });

  it('connecting and disconnecting ports; a step never leads to itself', () => {
    const def = welcomeSeries();
    expect(connect(def, 'send2', 'next', 'send2')).toBe(def);
    expect(connect(def, 'send2', 'next', 'nowhere')).toBe(def);
    const loop = connect(def, 'send4', 'next', 'send2');
    // send2 → branch1 → send4 → send2 with no wait between.
    expect(validate(loop).map((p) => p.message)).toEqual(['Step "send2" is in a loop without a wait step.']);
    const waitedLoop = connect(def, 'send4', 'next', 'wait1');
    expect(validate(waitedLoop)).toEqual([]);
    const cut = disconnect(def, 'wait1', 'next');
    expect(validate(cut).map((p) => p.stepId)).toEqual(['send2', 'branch1', 'send3', 'send4']);
    expect(disconnect(def, START, 'next').start).toBe('');
    expect(validate(disconnect(def, START, 'next'))[0].message).toBe('Choose the first step (Start leads nowhere).');
  });

  it('renaming a step renames every reference; a taken name is refused', () => {
    const def = renameStep(welcomeSeries(), 'send2', 'ask');
    expect(def.steps.find((s) => s.id === 'wait1')).toMatchObject({ next: 'ask' });
    expect(renameStep(def, 'send1', 'ask')).toBe(def);
    expect(renameStep(renameStep(def, 'send1', 'welcome'), 'welcome', 'send1').start).toBe('send1');
    expect(validate(def)).toEqual([]);
  });

  it('updating a step changes its fields but neither its id nor where it leads', () => {
    const def = updateStep(welcomeSeries(), 'send1', { subject: 'Welcome', next: 'send4', id: 'x' } as Partial<SendStep>);
    expect(def.steps[0]).toMatchObject({ id: 'send1', subject: 'Welcome', next: 'wait1' });
  });

  it('names the step of each problem the server would refuse', () => {
    let def = welcomeSeries();
    // "opened" right after the start: no e-mail has gone out on that path.
    def = addStep(def, 'branch', { from: START, port: 'next' }).definition;
    def = addStep(def, 'split', { from: 'send3', port: 'next' }).definition;
    def = updateStep(def, 'split1', { percent: 150 });
    def = updateStep(def, 'send4', { template_id: 0, subject: ' ' });
    expect(validate({ ...def, triggers: [] }, { activating: true }).map((p) => p.message)).toEqual([
      'A journey needs at least one trigger to be activated.',
      'Step "send4" needs a template.',
      'Step "send4" needs a subject.',
      'Step "split1" splits by a percentage above 100.',
      'Step "branch2" branches on an e-mail that may not have been sent yet.',
    ]);
  });
});
