import { Button } from '@exam/ui/button';
import { Input } from '@exam/ui/input';
import { Plus, X } from 'lucide-react';
import type { ReactNode } from 'react';

type Props = {
  values: string[];
  onChange: (values: string[]) => void;
  /** Accessible name of item i (0-based), e.g. 'Question 1 option 2'. */
  itemLabel: (index: number) => string;
  /** Names never contain another control's name, so label lookups by substring stay unambiguous. */
  removeLabel: (index: number) => string;
  placeholder: (index: number) => string;
  addLabel: string;
  addText: string;
  minItems?: number;
  /** Rendered before each input (the MCQ's correct-option radio). */
  renderLeading?: (index: number) => ReactNode;
  errors?: Array<string | undefined>;
  /** Rendered under each item (an option's live preview when it uses Markdown). */
  renderTrailing?: (index: number) => ReactNode;
};

/** An editable list of short texts (MCQ options, accepted answers): add, edit, remove. */
export function StringListEditor({
  values,
  onChange,
  itemLabel,
  removeLabel,
  placeholder,
  addLabel,
  addText,
  minItems = 0,
  renderLeading,
  errors,
  renderTrailing,
}: Props) {
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col gap-2">
        {values.map((value, index) => (
          <li key={index} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              {renderLeading?.(index)}
              <Input
                aria-label={itemLabel(index)}
                aria-invalid={errors?.[index] ? true : undefined}
                value={value}
                placeholder={placeholder(index)}
                onChange={(event) => onChange(values.map((v, i) => (i === index ? event.target.value : v)))}
              />
              <Button
                variant="ghost"
                size="icon"
                aria-label={removeLabel(index)}
                disabled={values.length <= minItems}
                onClick={() => onChange(values.filter((_, i) => i !== index))}
              >
                <X aria-hidden className="h-4 w-4" />
              </Button>
            </div>
            {errors?.[index] && <p className="text-xs text-danger">{errors[index]}</p>}
            {renderTrailing?.(index)}
          </li>
        ))}
      </ul>
      <div>
        <Button variant="ghost" size="sm" aria-label={addLabel} onClick={() => onChange([...values, ''])}>
          <Plus aria-hidden className="h-4 w-4" /> {addText}
        </Button>
      </div>
    </div>
  );
}
